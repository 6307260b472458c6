import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import type { LedgerPeriod } from '#contract/ledger-periods.ts';
import { DateTime } from '../../../../components/date-time.tsx';
import { TextField } from '../../../../components/bound-fields.tsx';
import { FormActions, FormCard, SubmitButton } from '../../../../components/form-card.tsx';
import { PageSection } from '../../../../components/page-section.tsx';
import { EmptyState, ErrorState } from '../../../../components/query-state.tsx';
import {
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableHeader,
  TableRow,
} from '../../../../components/ui/table.tsx';
import { ApiError, describeError } from '../../../../lib/api-errors.ts';
import { useCan } from '../../../../lib/permissions.ts';
import { journalUrl, periodQueries, useProposeClose } from '../api/period-queries.ts';

/**
 * Ledger periods: each month proposed for closing, closed or declined; an
 * admin proposes the next month to close, and another decides it on its
 * held item. A closed month's journal downloads from its row.
 */

const STATUS_WORDS: Record<LedgerPeriod['status'], string> = {
  PENDING: 'Waiting for a second admin',
  CLOSED: 'Closed',
  DECLINED: 'Declined',
};

const ProposeSchema = z.object({
  month: z
    .string()
    .trim()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'month must be a month written YYYY-MM, such as 2026-10'),
});
type ProposeValues = z.infer<typeof ProposeSchema>;

function monthWords(month: string): string {
  // The 15th of the month at noon UTC names the month in any zone.
  return new Date(`${month}-15T12:00:00Z`).toLocaleString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

function ProposeForm({ nextMonth, zone }: { nextMonth: string | null; zone: string | null }) {
  const id = useId();
  const form = useForm<ProposeValues>({
    resolver: zodResolver(ProposeSchema),
    defaultValues: { month: nextMonth ?? '' },
  });
  useEffect(() => {
    if (nextMonth && !form.getValues('month')) form.setValue('month', nextMonth);
  }, [form, nextMonth]);
  const propose = useProposeClose();
  const onSubmit = form.handleSubmit((values) =>
    propose.mutate(values.month, {
      onError: (error) => {
        const field =
          error instanceof ApiError ? error.fields?.find((f) => f.field === 'month') : undefined;
        if (field)
          form.setError('month', { type: 'server', message: field.message }, { shouldFocus: true });
      },
    }),
  );
  const fieldLevel = propose.error instanceof ApiError && propose.error.fields?.length;
  const proposed = propose.data;
  return (
    <FormCard
      title="Propose closing a month"
      onSubmit={onSubmit}
      error={
        propose.isError && !fieldLevel ? `Not proposed: ${describeError(propose.error)}` : null
      }
    >
      <p className="text-sm text-slate-700">
        Months close in order, once ended, in the organization’s reporting zone
        {zone ? ` (${zone})` : ': yours, set by the first close'}. Another admin decides the close;
        once closed, the month’s statements never change, and anything dated in it that arrives
        later is booked at the start of the next open month as an adjustment.
      </p>
      <TextField
        form={form}
        fieldId={(name) => `${id}-${name}`}
        name="month"
        label="Month (YYYY-MM)"
        hint={nextMonth ? `The next month to close is ${monthWords(nextMonth)}.` : undefined}
        autoComplete="off"
      />
      <FormActions>
        <SubmitButton pending={propose.isPending} pendingLabel="Proposing…">
          Propose closing
        </SubmitButton>
      </FormActions>
      <p role="status" className="text-sm text-slate-800">
        {proposed ? (
          <>
            The close of {monthWords(proposed.month)} waits for a second admin:{' '}
            <Link
              to="/approvals/held/$entityId"
              params={{ entityId: proposed.heldItemId }}
              className="font-medium text-blue-800 underline"
            >
              open its held item
            </Link>
            .
          </>
        ) : null}
      </p>
    </FormCard>
  );
}

function PeriodRow({ period, canExport }: { period: LedgerPeriod; canExport: boolean }) {
  const name = monthWords(period.month);
  return (
    <TableRow>
      <TableCell>
        <span className="font-medium">{name}</span>
        <span className="block text-xs text-slate-700">{period.timeZone}</span>
      </TableCell>
      <TableCell>{STATUS_WORDS[period.status]}</TableCell>
      <TableCell>
        {period.proposedBy ?? '—'}, <DateTime iso={period.proposedAt} />
      </TableCell>
      <TableCell>
        {period.closings?.length ? (
          <ul>
            {period.closings.map((c) => (
              <li key={`${c.asset} ${c.chain}`} className="tabular-nums">
                {c.closing} {c.asset} <span className="text-xs text-slate-700">({c.chain})</span>
              </li>
            ))}
          </ul>
        ) : (
          '—'
        )}
        {period.digest ? (
          <span
            className="block font-mono text-xs break-all text-slate-700"
            title="Statement digest (SHA-256)"
          >
            {period.digest.slice(0, 16)}…
          </span>
        ) : null}
      </TableCell>
      <TableCell>
        <div className="flex flex-col gap-1">
          <Link
            to="/approvals/held/$entityId"
            params={{ entityId: period.heldItemId }}
            className="text-blue-800 underline"
            aria-label={`Held item of the close of ${name}`}
          >
            Held item
          </Link>
          {period.status === 'CLOSED' && canExport ? (
            <a
              href={journalUrl(period.month)}
              download={`journal-${period.month}.csv`}
              className="text-blue-800 underline"
            >
              Download the journal of {name}
            </a>
          ) : null}
        </div>
      </TableCell>
    </TableRow>
  );
}

export function PeriodsPage() {
  const periods = useQuery(periodQueries.list());
  const canClose = useCan('close-ledger-periods');
  return (
    <PageSection name="ledger-periods" heading="Ledger periods" className="gap-6">
      {canClose ? (
        <p className="text-sm text-slate-700">
          A closed month’s journal is booked to the accounts of the{' '}
          <Link to="/ledger/accounts" className="text-blue-800 underline">
            account mapping
          </Link>
          .
        </p>
      ) : null}
      {canClose && periods.data ? (
        <ProposeForm nextMonth={periods.data.nextMonth} zone={periods.data.timeZone} />
      ) : null}
      <section aria-labelledby="ledger-periods-list-title" className="flex flex-col gap-3">
        <h2 id="ledger-periods-list-title" className="text-lg font-semibold text-slate-900">
          Periods
        </h2>
        {periods.isPending ? (
          <p className="text-sm text-slate-700">Loading periods…</p>
        ) : periods.isError ? (
          <ErrorState
            title="The periods could not be loaded"
            error={periods.error}
            onRetry={() => void periods.refetch()}
            retrying={periods.isFetching}
          />
        ) : periods.data.results.length === 0 ? (
          <EmptyState title="No month is closed or proposed for closing yet." />
        ) : (
          <TableContainer label="Ledger periods">
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>Month</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Proposed</TableHead>
                  <TableHead>Closing balances</TableHead>
                  <TableHead>Actions</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {periods.data.results.map((p) => (
                  <PeriodRow key={p.id} period={p} canExport={canClose} />
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </section>
    </PageSection>
  );
}
