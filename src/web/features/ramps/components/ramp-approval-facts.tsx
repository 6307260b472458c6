import { useId } from 'react';
import type { Party, Transaction } from '#contract/transaction-record.ts';
import { formatAmount } from '#contract/decimal-format.ts';
import { Fact } from '../../../components/fact.tsx';
import { useNow } from '../../../lib/use-now.ts';
import {
  amountOf,
  describeAge,
  describeFee,
  describeLock,
  describeRate,
  railLabel,
} from '../quote-text.ts';
import { isRamp } from './ramp-details.tsx';

/** "Acme Treasury LLC · ACH · •••• 4321": the bank account by name, rail and last 4 only. */
function describeBank(party: Party | undefined): string | undefined {
  const bank = party?.bankDetails;
  if (!bank && party?.type !== 'BANK_ACCOUNT') return undefined;
  const last4 = (bank?.accountNumberMasked ?? '').replace(/[^0-9A-Za-z]/g, '').slice(-4);
  return [
    bank?.accountName ?? party?.name ?? bank?.bankName ?? 'Bank account',
    bank?.paymentRail ? railLabel(bank.paymentRail) : undefined,
    last4 ? `•••• ${last4}` : undefined,
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * The ramp's part of what an approver decides on, in a section of its own:
 * provider, rate, what arrives, the quote's age and what it locks until when,
 * the bank account (name, rail, last 4), and, when the rate moved beyond the
 * tolerance since a person accepted it, the old and the new rate and what
 * arrives at each: approving accepts the new quote (the decision names it).
 */
export function RampApprovalFacts({ transaction: tx }: { transaction: Transaction }) {
  const now = useNow(1000);
  // Shown in the decision panel and again in its dialog: an id of each's own.
  const titleId = useId();
  const quote = tx.quoteResponse;
  if (!isRamp(tx) || !quote) return null;
  const offRamp = tx.category === 'OFF_RAMP' || (tx.category !== 'ON_RAMP' && !tx.vaultId);
  const bank = describeBank(offRamp ? tx.destination : tx.source) ?? describeBank(tx.destination);
  const last = tx.requotes?.at(-1);
  const moved =
    last?.beyondTolerance &&
    last.quoteId === quote.quoteId &&
    tx.acceptedQuote?.quoteId !== quote.quoteId
      ? last
      : undefined;
  const age = describeAge(quote, now);
  return (
    <section
      aria-labelledby={titleId}
      className="mt-3 rounded-md border border-slate-200 bg-white p-3 text-sm"
      data-testid="ramp-approval"
    >
      <h3 id={titleId} className="font-medium text-slate-900">
        The quote you are approving
      </h3>
      {moved ? (
        <p
          role="alert"
          className="mt-2 rounded border border-amber-600 bg-amber-50 p-2 text-amber-950"
          data-testid="ramp-rate-moved"
        >
          The quote expired and was priced again: the rate moved from{' '}
          {formatAmount(moved.acceptedRate)} to {formatAmount(moved.rate)}, beyond the{' '}
          {moved.tolerancePercent}% tolerance. It was to deliver{' '}
          {amountOf(tx.acceptedQuote?.finalToAmount ?? moved.previousFinalToAmount, quote.toAsset)};
          it now delivers {amountOf(moved.finalToAmount, quote.toAsset)}. Approving accepts the new
          quote.
        </p>
      ) : null}
      <dl className="mt-2 grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1">
        <Fact term="Provider">{quote.sourceName ?? 'not named'}</Fact>
        <Fact term="Rate">
          <span data-testid="ramp-approval-rate">{describeRate(quote)}</span>
        </Fact>
        <Fact term="Arrives">
          <span className="font-medium tabular-nums" data-testid="ramp-approval-arrives">
            {amountOf(quote.finalToAmount, quote.toAsset)}
          </span>
        </Fact>
        <Fact term="Provider fee">
          <span className="tabular-nums">{describeFee(quote)}</span> (included in what leaves)
        </Fact>
        <Fact term="Quote">
          <span data-testid="ramp-approval-lock">{describeLock(quote, now)}</span>
          {age ? <span className="block text-slate-700">Priced {age} ago</span> : null}
        </Fact>
        {bank ? <Fact term="Bank account">{bank}</Fact> : null}
      </dl>
    </section>
  );
}
