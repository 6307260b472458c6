import type { CostFigure, CostSum, TransactionCost } from '#contract/approval-cost.ts';
import { chainLabel } from '#contract/chains.ts';
import { formatAmount, formatUsd } from '#contract/decimal-format.ts';
import { describeError } from '../lib/api-errors.ts';
import { useApprovalCosts } from '../lib/approval-cost-queries.ts';
import { humanize } from '../lib/labels.ts';
import { Fact } from './fact.tsx';

/**
 * What approving costs, as the server answered it (contract/approval-cost.ts):
 * the network fee of the transaction's tier, what leaves in all in each asset
 * and in USD, and a warning when the fee is more than what is sent; for a
 * bulk approval, the selection's sums. Shown in the approve dialogs, where
 * the decision is made.
 */

const usd = (value: string | null) => (value === null ? null : `≈ ${formatUsd(value)} USD`);

function figure(f: Pick<CostFigure, 'amount' | 'asset'>): string {
  return `${formatAmount(f.amount)} ${f.asset}`;
}

function feeBasis(cost: TransactionCost): string {
  const fee = cost.fee;
  if (!fee) return '';
  const tier = fee.tierDefaulted
    ? `${humanize(fee.tier)} tier (the custody API's default: none was chosen)`
    : `${humanize(fee.tier)} tier`;
  return fee.basis === 'ESTIMATED'
    ? `${tier}, estimated now; the fee charged is this tier's estimate when it is signed`
    : `${tier}, charged`;
}

/** The fee and the total leaving, as rows of the caller's decision summary (`<dl>`). */
export function CostFacts({ cost }: { cost: TransactionCost }) {
  const { fee } = cost;
  return (
    <>
      <Fact term="Fee">
        <span data-testid="approval-fee">
          {fee ? (
            <>
              <span className="font-medium tabular-nums">{figure(fee)}</span>
              {fee.usd !== null ? <span className="text-slate-700"> ({usd(fee.usd)})</span> : null}
              <span className="block text-xs text-slate-700">{feeBasis(cost)}</span>
            </>
          ) : (
            `Not known: ${cost.feeProblem ?? 'no estimate'}.`
          )}
        </span>
      </Fact>
      <Fact term="Total leaving">
        <span data-testid="approval-total">
          <span className="font-medium tabular-nums">
            {cost.leaving.length > 0 ? cost.leaving.map(figure).join(' + ') : 'Nothing stated'}
          </span>
          <span className="block text-slate-700">
            {cost.totalUsd !== null
              ? `${usd(cost.totalUsd)} in all, amount and fee`
              : fee
                ? 'No USD total: a part of it has no USD value.'
                : 'No USD total: the fee is not known.'}
          </span>
        </span>
        {cost.feeExceedsAmount ? <FeeWarning cost={cost} /> : null}
      </Fact>
    </>
  );
}

function FeeWarning({ cost }: { cost: TransactionCost }) {
  const { fee, amount } = cost;
  if (!fee || !amount) return null;
  const sameAsset = fee.asset === amount.asset;
  const fees = sameAsset ? figure(fee) : (usd(fee.usd) ?? figure(fee));
  const sent = sameAsset ? figure(amount) : (usd(amount.usd) ?? figure(amount));
  return (
    <p
      role="note"
      data-testid="fee-exceeds-amount"
      className="mt-1 rounded-md border border-amber-400 bg-amber-50 p-2 text-sm text-amber-950"
    >
      The fee ({fees}) is more than the amount sent ({sent}).
    </p>
  );
}

/** One transaction's cost, read from the server when its approve dialog opens. */
export function CostFactsFor({ entityId }: { entityId: string }) {
  const costs = useApprovalCosts([entityId]);
  const cost = costs.data?.results[0];
  if (cost) return <CostFacts cost={cost} />;
  return (
    <Fact term="Fee">
      {costs.isError
        ? `Not known: ${describeError(costs.error)}`
        : costs.isPending
          ? 'Estimating the fee…'
          : 'Not known: the transaction could not be read.'}
    </Fact>
  );
}

function assetOn(line: { asset: string; blockChain: string | null }): string {
  const chain = chainLabel(line.blockChain ?? undefined);
  return chain ? `${line.asset} on ${chain}` : line.asset;
}

/** A selection's sums: per asset (sent, fees, both) and in USD. */
export function CostSumView({ sum, count }: { sum: CostSum; count: number }) {
  return (
    <section
      aria-label="What leaves in all"
      data-testid="bulk-cost-sum"
      className="rounded-md border border-slate-300 bg-white p-3 text-sm"
    >
      <h3 className="font-semibold text-slate-900">What leaves in all</h3>
      <ul className="mt-1 flex flex-col gap-0.5">
        {sum.perAsset.map((line) => (
          <li key={`${line.asset}:${line.blockChain ?? ''}`} className="tabular-nums">
            <span className="font-medium">
              {formatAmount(line.total)} {assetOn(line)}
            </span>
            <span className="text-slate-700">
              {` (${formatAmount(line.amount)} sent + ${formatAmount(line.fee)} in fees)`}
              {line.usd !== null ? ` ${usd(line.usd)}` : ''}
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-1 font-medium text-slate-900" data-testid="bulk-cost-usd">
        {`In USD: ${usd(sum.totalUsd)} (${usd(sum.amountUsd)} sent + ${usd(sum.feeUsd)} in fees)`}
      </p>
      {sum.unpriced > 0 ? (
        <p className="text-slate-800">
          {sum.unpriced === count
            ? 'None of these has a full USD value (a price or a fee estimate is missing): the USD sum leaves out what is missing.'
            : `${sum.unpriced} of these ${count} have no full USD value (a price or a fee estimate is missing): the USD sum leaves out what is missing.`}
        </p>
      ) : null}
    </section>
  );
}
