import type { ReactNode } from 'react';
import { formatAmount, formatUsd } from '#contract/decimal-format.ts';
import type { Transaction } from '#contract/transaction-record.ts';

/** " (≈ 1,234.50 USD)" after an amount, to the cent, as the API values it; nothing when it does not. */
export function UsdEquivalent({ value }: { value: string | null | undefined }) {
  return value ? (
    <span className="font-normal text-slate-700"> (≈ {formatUsd(value)} USD)</span>
  ) : null;
}

/** A transaction's network fee as stated, with its USD value; `none` where no fee is stated yet. */
export function FeeCharged({ fees, none }: { fees: Transaction['fees']; none: ReactNode }) {
  return fees?.amount ? (
    <span className="tabular-nums">
      {formatAmount(fees.amount)} {fees.asset}
      <UsdEquivalent value={fees.amountInFiat} />
    </span>
  ) : (
    none
  );
}
