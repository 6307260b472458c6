import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { formatAmount, formatUsd } from '#contract/decimal-format.ts';
import type { PaymentRunSummary } from '#contract/payment-runs.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { PageSection } from '../../../components/page-section.tsx';
import { EmptyState, ErrorState } from '../../../components/query-state.tsx';
import { buttonVariants } from '../../../components/ui/button.tsx';
import { StatusBadge } from '../../../components/ui/status-badge.tsx';
import {
  Table,
  TableBody,
  TableCaption,
  TableCell,
  TableContainer,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../components/ui/table.tsx';
import { paymentRunQueries } from '../api/payment-run-queries.ts';

function total(run: PaymentRunSummary): string {
  const legs = run.totals.map((t) => `${formatAmount(t.amount)} ${t.asset}`).join(' · ');
  return run.totalUsd !== null ? `${legs} (≈ ${formatUsd(run.totalUsd)} USD)` : legs || '—';
}

function progress(run: PaymentRunSummary): string {
  const p = run.progress;
  if (p.pending === p.rows) return 'Not started';
  const parts = [`${p.completed} of ${p.rows} completed`];
  if (p.sent) parts.push(`${p.sent} sent`);
  if (p.failed) parts.push(`${p.failed} failed`);
  if (p.cancelled) parts.push(`${p.cancelled} cancelled`);
  return parts.join(', ');
}

/** `/payment-runs`: the newest runs in the member's scope, each opening its page. */
export function PaymentRunsPage({ canCreate }: { canCreate: boolean }) {
  const query = useQuery(paymentRunQueries.list());
  return (
    <PageSection name="payment-runs" heading="Payment runs" className="gap-4">
      <p className="text-sm text-slate-800">
        Many payouts from one file, checked row by row, approved once as a whole and paid exactly
        once per row.
      </p>
      <p className="flex flex-wrap items-center gap-3">
        {canCreate ? (
          <Link to="/payment-runs/new" className={buttonVariants({ variant: 'primary' })}>
            New payment run
          </Link>
        ) : null}
        <Link to="/payment-runs/schedules" className="text-sm text-blue-800 underline">
          Schedules
        </Link>
      </p>
      {query.isPending ? (
        <p role="status" className="text-sm text-slate-700">
          Loading payment runs…
        </p>
      ) : query.isError ? (
        <ErrorState
          title="Payment runs could not be loaded"
          error={query.error}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : query.data.results.length === 0 ? (
        <EmptyState title="No payment runs yet" />
      ) : (
        <TableContainer label="Payment runs">
          <Table>
            <TableCaption>Payment runs, newest first</TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>Rows</TableHead>
                <TableHead>Total</TableHead>
                <TableHead>Created by</TableHead>
                <TableHead>Progress</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {query.data.results.map((run) => (
                <TableRow key={run.id}>
                  <TableHead scope="row">
                    <Link
                      to="/payment-runs/$runId"
                      params={{ runId: run.id }}
                      className="text-blue-800 underline"
                    >
                      {run.name}
                    </Link>
                  </TableHead>
                  <TableCell>
                    <StatusBadge status={run.status} />
                  </TableCell>
                  <TableCell className="tabular-nums">{run.progress.rows}</TableCell>
                  <TableCell className="tabular-nums">{total(run)}</TableCell>
                  <TableCell>
                    {run.createdByName ?? run.createdById}
                    <span className="block text-xs text-slate-700">
                      <DateTime iso={run.createdAt} />
                    </span>
                  </TableCell>
                  <TableCell>{progress(run)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </PageSection>
  );
}
