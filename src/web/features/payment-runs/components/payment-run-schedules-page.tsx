import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { formatUsd } from '#contract/decimal-format.ts';
import type { PaymentRunSchedule } from '#contract/payment-run-schedules.ts';
import { ActionDialog, ConfirmActions } from '../../../components/action-dialog.tsx';
import { DateTime } from '../../../components/date-time.tsx';
import { PageSection } from '../../../components/page-section.tsx';
import { EmptyState, ErrorState } from '../../../components/query-state.tsx';
import { Button } from '../../../components/ui/button.tsx';
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
import { describeError } from '../../../lib/api-errors.ts';
import { scheduleQueries, useScheduleMove } from '../api/schedule-queries.ts';

/** Cancel, once confirmed: no further occurrence; runs already made are left as they stand. */
function CancelSchedule({ schedule }: { schedule: PaymentRunSchedule }) {
  const [open, setOpen] = useState(false);
  const move = useScheduleMove();
  return (
    <ActionDialog
      open={open}
      onOpenChange={setOpen}
      onClosed={() => move.reset()}
      trigger={
        <Button size="sm" variant="destructive" aria-label={`Cancel the schedule ${schedule.name}`}>
          Cancel
        </Button>
      }
      title={`Cancel the schedule “${schedule.name}”?`}
      description="No further run is made from it. Runs it already made are not touched: cancel or decline each on its own page."
    >
      <ConfirmActions
        mutation={move}
        label="Cancel the schedule"
        runningLabel="Cancelling…"
        cancelLabel="Keep it"
        variant="destructive"
        onConfirm={() =>
          move.mutate(
            { scheduleId: schedule.id, move: 'cancel' },
            { onSuccess: () => setOpen(false) },
          )
        }
      />
    </ActionDialog>
  );
}

/**
 * How the schedule's occurrences are approved: within an approved cap
 * without a vote ("pre-approved up to …"), or each like a new run; a cap
 * waiting for its approval links to it.
 */
function ApprovalOf({ schedule }: { schedule: PaymentRunSchedule }) {
  const pre = schedule.preApproval;
  const cap = pre ? `$${formatUsd(pre.maxTotalUsd)}` : '';
  if (!pre || pre.status === 'DECLINED')
    return (
      <span className="block text-xs text-slate-700">
        Each occurrence approved{pre ? ` (pre-approval up to ${cap} declined)` : ''}
      </span>
    );
  if (pre.status === 'PENDING')
    return (
      <span className="block text-xs text-slate-700">
        Each occurrence approved until the{' '}
        <Link
          to="/approvals/held/$entityId"
          params={{ entityId: pre.approvalId }}
          className="text-blue-800 underline"
        >
          pre-approval up to {cap}
        </Link>{' '}
        is approved
      </span>
    );
  return (
    <span className="block text-xs text-slate-700">
      Pre-approved up to {cap} per occurrence
      {pre.approvedBy.length ? ` by ${pre.approvedBy.join(', ')}` : ''}
    </span>
  );
}

/** Pause or resume, at once (nothing is lost either way). */
function PauseOrResume({ schedule }: { schedule: PaymentRunSchedule }) {
  const move = useScheduleMove();
  const pausing = schedule.status === 'ACTIVE';
  return (
    <>
      <Button
        size="sm"
        aria-label={`${pausing ? 'Pause' : 'Resume'} the schedule ${schedule.name}`}
        disabled={move.isPending}
        onClick={() => move.mutate({ scheduleId: schedule.id, move: pausing ? 'pause' : 'resume' })}
      >
        {pausing ? 'Pause' : 'Resume'}
      </Button>
      {move.isError ? (
        <p role="alert" className="text-sm text-red-800">
          {describeError(move.error)}
        </p>
      ) : null}
    </>
  );
}

/**
 * `/payment-runs/schedules`: each schedule with its timing, its next
 * occurrences, its last run (linked, with where it stands, and why it was
 * not put up for approval when it was not), its status; pause, resume and
 * cancel (confirmed).
 */
export function PaymentRunSchedulesPage({ canChange }: { canChange: boolean }) {
  const query = useQuery(scheduleQueries.list());
  return (
    <PageSection name="payment-run-schedules" heading="Payment run schedules" className="gap-4">
      <p>
        <Link to="/payment-runs" className="text-sm text-blue-800 underline">
          All payment runs
        </Link>
      </p>
      <p className="text-sm text-slate-800">
        A checked run paid later or every month. Each occurrence is a new run, checked as its rows
        stand then and approved like any run, unless the schedule was pre-approved and it stays
        within the approved cap; a month without the schedule’s day pays on its last day.
      </p>
      {query.isPending ? (
        <p role="status" className="text-sm text-slate-700">
          Loading schedules…
        </p>
      ) : query.isError ? (
        <ErrorState
          title="Schedules could not be loaded"
          error={query.error}
          onRetry={() => void query.refetch()}
          retrying={query.isFetching}
        />
      ) : query.data.results.length === 0 ? (
        <EmptyState title="No schedules yet">
          <p className="text-sm text-slate-700">
            Schedule a checked run from its page: Schedule once, or Repeat monthly.
          </p>
        </EmptyState>
      ) : (
        <TableContainer label="Payment run schedules">
          <Table>
            <TableCaption>Payment run schedules, newest first</TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>When</TableHead>
                <TableHead>Next due</TableHead>
                <TableHead>Last run</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {query.data.results.map((s) => (
                <TableRow key={s.id} aria-label={s.name}>
                  <TableHead scope="row">
                    {s.name}
                    <span className="block text-xs font-normal text-slate-700">
                      {s.rowCount} {s.rowCount === 1 ? 'row' : 'rows'}
                    </span>
                  </TableHead>
                  <TableCell>
                    {s.description}
                    <ApprovalOf schedule={s} />
                  </TableCell>
                  <TableCell>
                    {s.nextDueAt ? (
                      <>
                        <DateTime iso={s.nextDueAt} />
                        {s.upcoming.length ? (
                          <span className="block text-xs text-slate-700">
                            then{' '}
                            {s.upcoming.map((u, i) => (
                              <span key={u}>
                                {i > 0 ? ', ' : ''}
                                <DateTime iso={u} />
                              </span>
                            ))}
                          </span>
                        ) : null}
                      </>
                    ) : (
                      '—'
                    )}
                  </TableCell>
                  <TableCell>
                    {s.lastRun ? (
                      <div className="flex flex-col gap-1">
                        <Link
                          to="/payment-runs/$runId"
                          params={{ runId: s.lastRun.runId }}
                          className="text-blue-800 underline"
                        >
                          Run due <DateTime iso={s.lastRun.dueAt} />
                        </Link>
                        <StatusBadge status={s.lastRun.status} />
                        {s.lastRun.failure ? (
                          <span className="text-xs text-red-800">{s.lastRun.failure}</span>
                        ) : null}
                      </div>
                    ) : (
                      'None yet'
                    )}
                  </TableCell>
                  <TableCell>
                    <StatusBadge status={s.status} />
                  </TableCell>
                  <TableCell>
                    {canChange && (s.status === 'ACTIVE' || s.status === 'PAUSED') ? (
                      <div className="flex flex-wrap gap-2">
                        <PauseOrResume schedule={s} />
                        <CancelSchedule schedule={s} />
                      </div>
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </PageSection>
  );
}
