import { add, formatAmount } from '#contract/decimal.ts';
import type { FeeTier } from '#contract/enums.ts';
import type { ReactNode } from 'react';
import type { FeeData } from '#contract/transaction.ts';
import { humanize } from '../../../../lib/labels.ts';
import { chainLabelOf } from './picker-data.ts';
import { ReviewRow } from './create-flow.tsx';
import { describeFee } from './fee-tier-picker.tsx';

/**
 * The fee and the total that leaves the vault, as a treasurer reads them.
 * When the vault pays the fee in the asset it sends, the two add up; in
 * another asset (a token on an EVM chain) they are named side by side.
 */
export function FeeAndTotalRows({
  tier,
  fee,
  amount,
  asset,
  vault,
  feePayer,
}: {
  tier: FeeTier;
  fee: FeeData | undefined;
  amount: string | undefined;
  asset: string | undefined;
  vault: string;
  /** The vault paying the fee when it is not the source. */
  feePayer?: string | undefined;
}) {
  const feeText = fee
    ? `${humanize(tier)}: ${describeFee(fee)}, as estimated now; the fee charged is the tier's estimate when the transaction is signed`
    : `${humanize(tier)}: not estimated; the fee is set when the transaction is signed`;
  let total: string;
  if (!amount || !asset) {
    total = fee
      ? feePayer
        ? `nothing from ${vault}; ${feePayer} pays the fee of ${formatAmount(fee.expectedFeeInAsset)} ${fee.asset}`
        : `only the network fee, about ${formatAmount(fee.expectedFeeInAsset)} ${fee.asset}`
      : 'only the network fee';
  } else if (feePayer) {
    total = `${formatAmount(amount)} ${asset}; the fee is paid by ${feePayer}`;
  } else if (fee && fee.asset === asset) {
    total = `${formatAmount(add(amount, fee.expectedFeeInAsset))} ${asset} (${formatAmount(amount)} ${asset} plus the ${formatAmount(fee.expectedFeeInAsset)} ${asset} fee)`;
  } else if (fee) {
    total = `${formatAmount(amount)} ${asset} plus the fee of ${formatAmount(fee.expectedFeeInAsset)} ${fee.asset}`;
  } else {
    total = `${formatAmount(amount)} ${asset} plus the network fee`;
  }
  return (
    <>
      <ReviewRow term="Network fee">{feeText}</ReviewRow>
      <ReviewRow term={`Total leaving ${vault}`}>
        <span data-testid="review-total">{total}</span>
      </ReviewRow>
    </>
  );
}

/** The member's own words on the request: its memo, where it has one, and its externalId. */
export function ReferenceRows({
  memo,
  externalId,
}: {
  memo?: string | undefined;
  externalId: string | undefined;
}) {
  return (
    <>
      {memo ? <ReviewRow term="Memo">{memo}</ReviewRow> : null}
      <ReviewRow term="External ID">{externalId ?? 'none'}</ReviewRow>
    </>
  );
}

/** What is sent, in words: "0.01 ETH on Ethereum", and what the form adds to it. */
export function AmountOnChainRow({
  term,
  request,
  children,
}: {
  term: string;
  request: { amount: string; asset: string; blockChain: string };
  children?: ReactNode;
}) {
  return (
    <ReviewRow term={term}>
      {formatAmount(request.amount)} {request.asset} on {chainLabelOf(request.blockChain)}
      {children}
    </ReviewRow>
  );
}
