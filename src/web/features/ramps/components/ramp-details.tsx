import type { ReactNode } from 'react';
import { chainLabel } from '#contract/chains.ts';
import type { Operation, Party, Transaction } from '#contract/transaction-record.ts';
import { Fact } from '../../../components/fact.tsx';
import { Panel } from '../../../components/panel.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { humanize, partyLabel } from '../../../lib/labels.ts';
import { useNow } from '../../../lib/use-now.ts';
import { amountOf, describeFee, describeLock, describeRate, describeWait } from '../quote-text.ts';
import { DepositInstructionsPanel } from './deposit-instructions.tsx';

/** A ramp or FX: made from a quote, whatever its category is called. */
export function isRamp(tx: Transaction): boolean {
  return (
    Boolean(tx.quoteResponse ?? tx.intent) || ['ON_RAMP', 'OFF_RAMP'].includes(tx.category ?? '')
  );
}

/**
 * A ramp's parts of its transaction page: the quote it was made from, its
 * operations as numbered steps with their statuses, and for an on-ramp or FX
 * the deposit instructions with the "Mark deposit sent" action. Nothing for
 * any other transaction.
 */
export function RampDetails({
  transaction: tx,
  refresh,
}: {
  transaction: Transaction;
  refresh: () => void;
}) {
  if (!isRamp(tx)) return null;
  return (
    <>
      {tx.depositInstructions ? (
        <DepositInstructionsPanel transaction={tx} refresh={refresh} />
      ) : null}
      <RampQuotePanel transaction={tx} />
      <RampSteps transaction={tx} />
    </>
  );
}

function RampQuotePanel({ transaction: tx }: { transaction: Transaction }) {
  const quote = tx.quoteResponse;
  return (
    <Panel title="Conversion quote">
      {quote ? (
        <dl
          className="mt-2 grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1 text-sm"
          data-testid="ramp-quote"
        >
          <Fact term="Provider">{quote.sourceName ?? 'not named'}</Fact>
          <Fact term="Leaves">
            <span className="tabular-nums" data-testid="ramp-quote-leaves">
              {amountOf(quote.finalFromAmount, quote.fromAsset)}
            </span>
            {quote.fromChain ? ` on ${chainLabel(quote.fromChain)}` : ''}
          </Fact>
          <Fact term="Provider fee">
            <span className="tabular-nums">{describeFee(quote)}</span> (included)
          </Fact>
          <Fact term="Arrives">
            <span className="tabular-nums" data-testid="ramp-quote-arrives">
              {amountOf(quote.finalToAmount, quote.toAsset)}
            </span>
            {quote.toChain ? ` on ${chainLabel(quote.toChain)}` : ''}
          </Fact>
          <Fact term="Rate">{describeRate(quote)}</Fact>
          <Fact term="How long">{describeWait(quote.estCompletionTimeInSec)}</Fact>
          <Fact term="Locked">
            <QuoteLock transaction={tx} />
          </Fact>
          {tx.requotes?.length ? (
            <Fact term="Re-quoted">
              <ul className="space-y-1" aria-label="Re-quotes">
                {tx.requotes.map((r) => (
                  <li key={r.quoteId}>
                    {r.at.slice(11, 19)} UTC,{' '}
                    {r.when === 'EXECUTION' ? 'as it executed' : 'at an approval'}: rate{' '}
                    {r.previousRate} → {r.rate}
                    {r.beyondTolerance
                      ? `, beyond the ${r.tolerancePercent}% tolerance`
                      : `, within the ${r.tolerancePercent}% tolerance`}
                  </li>
                ))}
              </ul>
            </Fact>
          ) : null}
          <Fact term="Quote ID">
            <span className="font-mono text-xs break-all">{quote.quoteId}</span>
          </Fact>
        </dl>
      ) : (
        <p className="mt-2 text-sm text-slate-700">The custody service sent no quote with it.</p>
      )}
    </Panel>
  );
}

/** What the quote locks and until when, ticking while the page is open. */
function QuoteLock({ transaction: tx }: { transaction: Transaction }) {
  const now = useNow(1000);
  if (!tx.quoteResponse) return null;
  // Only a ramp still to execute is priced again; one under way or ended keeps its rate.
  const executes =
    tx.status === 'PENDING' ||
    (tx.status === 'APPROVED' && !tx.operations?.some((o) => o.status !== 'PENDING'));
  return (
    <span data-testid="ramp-quote-lock">{describeLock(tx.quoteResponse, now, { executes })}</span>
  );
}

const STEP_WORDS: Record<string, string> = {
  DEPOSIT: 'Deposit from your bank',
  TRADE: 'Trade',
  TRANSFER: 'Transfer',
  WITHDRAW: 'Pay out to the bank',
};

function who(party: Party | undefined): string {
  return party?.provider ?? partyLabel(party) ?? '';
}

function stepText(op: Operation): ReactNode {
  const from = who(op.source);
  const to = who(op.destination);
  return (
    <>
      {STEP_WORDS[op.type ?? ''] ?? humanize(op.type)}
      {from || to ? (
        <span className="text-slate-700">
          {' '}
          · {from || '—'} → {to || '—'}
        </span>
      ) : null}
    </>
  );
}

/** The operations in sequence: the provider's steps, each with where it stands. */
function RampSteps({ transaction: tx }: { transaction: Transaction }) {
  const operations = [...(tx.operations ?? [])].sort(
    (a, b) => (a.sequence ?? 0) - (b.sequence ?? 0),
  );
  return (
    <Panel title="Conversion steps">
      {operations.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">
          {tx.status === 'PENDING'
            ? 'The steps begin once it is approved.'
            : 'No steps recorded yet.'}
        </p>
      ) : (
        <ol className="mt-2 flex flex-col gap-2" aria-label="Steps of the conversion">
          {operations.map((op, i) => (
            <li
              key={op.sequence ?? i}
              data-op={op.type}
              data-op-status={op.status}
              className="flex flex-wrap items-center justify-between gap-2 rounded-md border border-slate-200 p-2 text-sm"
            >
              <span>
                <span className="font-medium">{op.sequence ?? i + 1}.</span> {stepText(op)}
              </span>
              <StatusBadge status={op.status} />
            </li>
          ))}
        </ol>
      )}
    </Panel>
  );
}
