import { chainLabel } from '#contract/chains.ts';
import type { Transaction } from '#contract/transaction-record.ts';
import { Fact } from '../../../components/fact.tsx';
import { Panel } from '../../../components/panel.tsx';
import { amountOf } from '../quote-text.ts';

/** A swap made from a trade quote (category SWAP with the provider's answer it executes). */
export function isSwap(tx: Transaction): boolean {
  return tx.category === 'SWAP' && Boolean(tx.tradeResponseData);
}

const onChain = (chain: string | undefined) => (chain ? ` on ${chainLabel(chain)}` : '');

/**
 * A swap's part of its transaction page: its two legs (what the vault sells,
 * with the provider's fee on top, and what arrives) and the quote it executes
 * (provider, rate, the least the slippage allows, until when it was valid).
 * Nothing for any other transaction.
 */
export function SwapDetails({ transaction: tx }: { transaction: Transaction }) {
  if (!isSwap(tx)) return null;
  const quote = tx.tradeResponseData;
  const fee = tx.fees?.amount ?? quote?.fees?.amount;
  const feeAsset = tx.fees?.asset ?? quote?.fees?.asset ?? tx.asset;
  const validTill = quote?.quotesValidTill;
  return (
    <Panel title="Swap">
      <dl className="mt-2 grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1 text-sm" data-testid="swap">
        <Fact term="Sells">
          <span className="tabular-nums" data-testid="swap-sells">
            {amountOf(tx.amount, tx.asset)}
          </span>
          {onChain(tx.blockChain)}
        </Fact>
        <Fact term="Provider fee">
          <span className="tabular-nums" data-testid="swap-fee">
            {amountOf(fee, feeAsset)}
          </span>{' '}
          (on top)
        </Fact>
        <Fact term="Arrives">
          <span className="tabular-nums" data-testid="swap-arrives">
            {amountOf(tx.finalToAmount ?? quote?.finalToAmount, tx.toAsset)}
          </span>
          {onChain(tx.toBlockChain)}
        </Fact>
        <Fact term="At least">
          <span className="tabular-nums">{amountOf(quote?.minimumToAmount, tx.toAsset)}</span> (the
          quote&apos;s slippage)
        </Fact>
        <Fact term="Provider">{quote?.sourceName ?? 'not named'}</Fact>
        <Fact term="Rate">
          {quote?.unitToAssetAmount
            ? `1 ${tx.asset ?? ''} = ${amountOf(quote.unitToAssetAmount, tx.toAsset)}`
            : 'not stated'}
        </Fact>
        <Fact term="Quote valid till">
          {validTill ? `${validTill.slice(0, 10)} ${validTill.slice(11, 19)} UTC` : 'not stated'}
        </Fact>
      </dl>
    </Panel>
  );
}
