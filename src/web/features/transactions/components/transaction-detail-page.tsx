import { Link, useSearch } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { formatAmount } from '#contract/decimal-format.ts';
import type { Transaction } from '#contract/transaction.ts';
import { ErrorState } from '../../../components/query-state.tsx';
import { RoutePending } from '../../../components/route-fallbacks.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import { ScheduledNote } from './scheduled-note.tsx';
import { CancelScheduled } from './cancel-scheduled.tsx';
import { ApiError } from '../../../lib/api-errors.ts';
import { humanize } from '../../../lib/labels.ts';
import { useNow } from '../../../lib/use-now.ts';
import { isFollowed, useTransactionSnapshot } from '../api/get-transaction.ts';
import { listSearchToReturnTo } from '../search.ts';
import { DecisionPanel, type DecisionExtras } from './decision-panel.tsx';
import { ReplacePanel } from './replace-panel.tsx';
import { SlowNotice } from './slow-notice.tsx';
import { StatusTimeline } from './status-timeline.tsx';
import { TransactionMovements, TransactionSummary } from './transaction-facts.tsx';
import { SignaturesPanel } from '../../../components/signatures-panel.tsx';

/**
 * What another feature shows of a transaction (a ramp's quote and steps), given
 * by the route: `refresh` reads the transaction again after an action of its own.
 */
export type TransactionExtras = (transaction: Transaction, refresh: () => void) => ReactNode;

/** `/transactions/$transactionId`: one transaction, followed until it ends. */
export function TransactionDetailPage({
  transactionId,
  extras,
  decisionExtras,
}: {
  transactionId: string;
  extras?: TransactionExtras;
  decisionExtras?: DecisionExtras;
}) {
  const query = useTransactionSnapshot(transactionId);

  if (query.isPending) return <RoutePending />;
  if (query.isError && !query.data) {
    const status = query.error instanceof ApiError ? query.error.status : undefined;
    if (status === 404 || status === 403)
      return <Unavailable transactionId={transactionId} forbidden={status === 403} />;
    return (
      <ErrorState
        title="This transaction could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  }
  const tx = query.data.transaction;
  return (
    // The first screen the server renders ends here (entry-server.tsx).
    <div id="transaction-page" className="space-y-4">
      <title>{`${humanize(tx.category) || 'Transaction'} ${tx.id ?? ''} · Custody Console`}</title>
      <BackToList />
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold text-slate-900">{heading(tx)}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-700">
            <StatusBadge status={tx.status} />
            <span className="font-mono break-all">{tx.id}</span>
          </p>
          <ScheduledNote transaction={tx} />
          <CancelScheduled transaction={tx} />
        </div>
        <Freshness
          updatedAt={query.dataUpdatedAt}
          following={isFollowed(tx.status)}
          draft={tx.status === 'DRAFT'}
          fetching={query.isFetching}
          failed={query.isError}
          onRefresh={() => void query.refetch()}
        />
      </header>
      {tx.status === 'DRAFT' ? <DraftNotice /> : null}
      <SlowNotice transaction={tx} />
      <DecisionPanel transaction={tx} extras={decisionExtras} />
      <div className="grid gap-4 lg:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]">
        <div className="space-y-4">
          <StatusTimeline transaction={tx} />
          <ReplacePanel transaction={tx} />
        </div>
        <div className="space-y-4">
          {extras?.(tx, () => void query.refetch())}
          <TransactionSummary transaction={tx} />
          <TransactionMovements transaction={tx} />
          {/* Read again as it moves on: a replacement can void a vote signed over its old card. */}
          <SignaturesPanel
            entityId={tx.id ?? ''}
            revision={`${tx.status}:${tx.replacements?.length ?? 0}`}
          />
          <details className="rounded-lg border border-slate-300 bg-white p-4">
            <summary className="cursor-pointer font-medium text-slate-900">Raw JSON</summary>
            <pre className="mt-2 max-h-[32rem] overflow-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
              {JSON.stringify(tx, null, 2)}
            </pre>
          </details>
        </div>
      </div>
    </div>
  );
}

function heading(tx: Transaction): string {
  const kind = humanize(tx.category) || 'Transaction';
  // A contract call that sends no value is not "a contract call of 0".
  if (!tx.amount || (tx.category === 'CONTRACT_CALL' && !/[1-9]/.test(tx.amount))) return kind;
  return `${kind} of ${formatAmount(tx.amount)} ${tx.asset ?? ''}`.trim();
}

/** To the list with the filters and page the member came from (see listSearchToReturnTo). */
function BackToList() {
  const { subOrg } = useSearch({ from: '/_authenticated' });
  return (
    <Link
      to="/transactions"
      search={listSearchToReturnTo(subOrg)}
      className="text-sm font-medium text-blue-800 underline hover:text-blue-900"
    >
      ← All transactions
    </Link>
  );
}

/** How fresh the page is: "updated N s ago", ticking, and whether it is still following. */
function Freshness({
  updatedAt,
  following,
  draft,
  fetching,
  failed,
  onRefresh,
}: {
  updatedAt: number;
  following: boolean;
  draft: boolean;
  fetching: boolean;
  failed: boolean;
  onRefresh: () => void;
}) {
  // The server's instant while rendered there and hydrated, then the browser's clock.
  const now = useNow(1000);
  const seconds = Math.max(0, Math.round((now - updatedAt) / 1000));
  return (
    <div className="flex items-center gap-3 text-sm text-slate-700">
      <p data-testid="freshness">
        Updated {seconds < 2 ? 'just now' : `${seconds} s ago`}
        {following
          ? ' · following until it completes'
          : draft
            ? ' · a draft: not followed'
            : ' · final status'}
        {failed ? ' · the last check failed, retrying' : ''}
      </p>
      <Button size="sm" onClick={onRefresh} disabled={fetching}>
        {fetching ? 'Checking…' : 'Refresh'}
      </Button>
    </div>
  );
}

/** A draft has nothing to decide and nothing that moves it here: say what it is and what happens next. */
function DraftNotice() {
  return (
    <section
      aria-labelledby="draft-title"
      className="rounded-lg border border-slate-300 bg-slate-50 p-4 text-sm text-slate-800"
    >
      <h2 id="draft-title" className="font-semibold text-slate-900">
        A draft, not yet submitted
      </h2>
      <p className="mt-1">
        It was saved without being sent for approval, so there is nothing to approve or decline yet
        and no money has moved. The custody API offers no way to submit or discard a draft from this
        console: it stays as it is until it is submitted where it was drafted. This page does not
        keep checking it; use Refresh to look again.
      </p>
    </section>
  );
}

/** 404 and 403 read the same to a member: there is nothing here they may see. */
function Unavailable({ transactionId, forbidden }: { transactionId: string; forbidden: boolean }) {
  return (
    <section aria-labelledby="unavailable-title" className="py-12">
      <title>Transaction not available · Custody Console</title>
      <h1 id="unavailable-title" className="text-2xl font-semibold text-slate-900">
        {forbidden ? 'You cannot open this transaction' : 'Transaction not found'}
      </h1>
      <p className="mt-2 text-slate-700">
        {forbidden
          ? 'Your role or sub-organizations do not include this transaction.'
          : 'There is no transaction with this ID in the sub-organizations you can see. It may belong to another sub-organization, or the link may be mistyped.'}
      </p>
      <p className="mt-1 font-mono text-sm break-all text-slate-700">{transactionId}</p>
      <p className="mt-4">
        <BackToList />
      </p>
    </section>
  );
}
