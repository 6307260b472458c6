import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { chainLabel } from '#contract/chains.ts';
import { formatAmount, formatUsd } from '#contract/decimal-format.ts';
import type { LedgerStatementResponse } from '#contract/ledger.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { DayInput } from '../../../components/day-input.tsx';
import { PageSection } from '../../../components/page-section.tsx';
import { CursorPagination } from '../../../components/pagination.tsx';
import { EmptyState, ErrorState } from '../../../components/query-state.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { Select } from '../../../components/ui/select.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
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
import { cn } from '../../../lib/cn.ts';
import {
  ledgerQueries,
  statementFileUrl,
  type LedgerWho,
  type StatementPeriod,
} from '../api/ledger-queries.ts';
import { reconciled } from '../ledger-figures.ts';
import { monthLabel, type ChosenPeriod } from '../statement-period.ts';
import { LedgerPicker } from './ledger-picker.tsx';
import { ReconstructionNote } from './reconstruction-note.tsx';

const linkClass =
  'text-sm font-medium text-blue-800 underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-700';

/**
 * `/ledger/statement`: a vault's or sub-organization's statement for a
 * month in the member's zone (or two days): per asset the opening balance,
 * the movements and fees, the closing balance and the check that they
 * reconcile; every movement, paged; the whole of it as CSV or to print.
 */
export function LedgerStatementPage({
  who,
  chosen,
  period,
  months,
  cursor,
  previousCursors,
  onWhoChange,
  onPeriodChange,
  onPage,
}: {
  who: LedgerWho;
  chosen: ChosenPeriod;
  period: StatementPeriod & { label: string };
  /** The months offered, newest first (`YYYY-MM`). */
  months: string[];
  cursor: string | undefined;
  /** Whether the way back is known (a page reached by Next in this tab). */
  previousCursors: number;
  onWhoChange: (next: LedgerWho) => void;
  onPeriodChange: (next: ChosenPeriod) => void;
  onPage: (direction: 'next' | 'previous', nextCursor?: string) => void;
}) {
  // The period's two instants alone: the loader read the same key (its label is the page's own).
  const statement = useQuery(
    ledgerQueries.statement(who, { from: period.from, to: period.to }, cursor),
  );
  const page = previousCursors + 1;
  return (
    <PageSection name="ledger-statement" heading="Statement" className="gap-4">
      <div className="flex flex-wrap items-start gap-4">
        <div className="w-72 max-w-full">
          <LedgerPicker value={who} onChange={onWhoChange} />
        </div>
        <PeriodChooser chosen={chosen} months={months} onChange={onPeriodChange} />
      </div>
      <p className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-700">
        <span data-testid="statement-period">
          Period: <span className="font-medium text-slate-900">{period.label}</span> (
          <DateTime iso={period.from} /> to <DateTime iso={period.to} />, end excluded)
        </span>
        <a href={statementFileUrl(who, period, 'csv')} download className={linkClass}>
          Download CSV
        </a>
        <a
          href={statementFileUrl(who, period, 'html')}
          target="_blank"
          rel="noopener"
          className={linkClass}
        >
          Printable statement<span className="sr-only"> (opens in a new tab)</span>
        </a>
        <Link
          to="/ledger"
          search={(prev) => ({ subOrg: prev.subOrg, vault: who.vaultId })}
          className={linkClass}
        >
          Balance history
        </Link>
      </p>
      {statement.isPending ? (
        <Skeleton className="h-64 w-full" />
      ) : statement.isError ? (
        <ErrorState
          title="The statement could not be loaded"
          error={statement.error}
          onRetry={() => void statement.refetch()}
          retrying={statement.isFetching}
        />
      ) : (
        <div
          data-testid="ledger-statement"
          aria-busy={statement.isPlaceholderData}
          className={cn('flex flex-col gap-4', statement.isPlaceholderData && 'opacity-60')}
        >
          <ReconstructionNote reconstructed={statement.data.reconstructed} />
          <StatementTotals statement={statement.data} />
          <StatementLines statement={statement.data} />
          {statement.data.results.length > 0 || page > 1 ? (
            <CursorPagination
              label="Statement pages"
              page={page}
              hasPrevious={page > 1 || cursor !== undefined}
              previousLabel={page > 1 ? 'Previous page' : 'First page'}
              hasNext={statement.data.hasNext}
              busy={statement.isPlaceholderData}
              onPrevious={() => onPage('previous')}
              onNext={() => onPage('next', statement.data.nextCursor ?? undefined)}
            />
          ) : null}
        </div>
      )}
    </PageSection>
  );
}

/** A month (the default), or two days of one's own, both included. */
function PeriodChooser({
  chosen,
  months,
  onChange,
}: {
  chosen: ChosenPeriod;
  months: string[];
  onChange: (next: ChosenPeriod) => void;
}) {
  const custom = Boolean(chosen.from && chosen.to);
  const [from, setFrom] = useState(chosen.from ?? '');
  const [to, setTo] = useState(chosen.to ?? '');
  const [error, setError] = useState<{ field: 'from' | 'to'; message: string } | undefined>();
  return (
    <div className="flex flex-wrap items-start gap-4">
      <Field id="statement-month" label="Month" className="w-52">
        <Select
          id="statement-month"
          value={custom ? '' : (chosen.month ?? months[0] ?? '')}
          onChange={(e) => e.target.value && onChange({ month: e.target.value })}
        >
          {custom ? <option value="">Dates below</option> : null}
          {months.map((m) => (
            <option key={m} value={m}>
              {monthLabel(m)}
            </option>
          ))}
        </Select>
      </Field>
      <form
        aria-label="Period of your own"
        className="flex flex-wrap items-start gap-2"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!from) return setError({ field: 'from', message: 'From: choose the first day' });
          if (!to) return setError({ field: 'to', message: 'To: choose the last day' });
          if (to < from)
            return setError({
              field: 'to',
              message: 'To: the last day must not be before the first',
            });
          setError(undefined);
          onChange({ from, to });
        }}
      >
        <Field
          id="statement-from"
          label="From"
          error={error?.field === 'from' ? error.message : undefined}
        >
          <DayInput
            id="statement-from"
            value={from}
            onDayChange={setFrom}
            aria-invalid={error?.field === 'from' ? true : undefined}
            aria-describedby={error?.field === 'from' ? 'statement-from-error' : undefined}
          />
        </Field>
        <Field
          id="statement-to"
          label="To (included)"
          error={error?.field === 'to' ? error.message : undefined}
        >
          <DayInput
            id="statement-to"
            value={to}
            onDayChange={setTo}
            aria-invalid={error?.field === 'to' ? true : undefined}
            aria-describedby={error?.field === 'to' ? 'statement-to-error' : undefined}
          />
        </Field>
        <Button type="submit" className="mt-6">
          Show these days
        </Button>
      </form>
    </div>
  );
}

function StatementTotals({ statement }: { statement: LedgerStatementResponse }) {
  if (statement.totals.length === 0)
    return <EmptyState title="No balance and no movement in this period" />;
  return (
    <TableContainer label="Balances per asset">
      <Table>
        <TableCaption>
          Per asset: the opening balance, the movements, the fees and the closing balance, and
          whether they reconcile
        </TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>Asset</TableHead>
            <TableHead className="text-right">Opening</TableHead>
            <TableHead className="text-right">Movements</TableHead>
            <TableHead className="text-right">Fees</TableHead>
            <TableHead className="text-right">Closing</TableHead>
            <TableHead>Reconciliation</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {statement.totals.map((t) => {
            const ok = reconciled(t);
            return (
              <TableRow
                key={`${t.asset}-${t.chain}`}
                data-testid={`statement-totals-${t.asset}-${t.chain}`}
              >
                <TableHead scope="row" className="normal-case">
                  {t.asset} on {chainLabel(t.chain)}
                </TableHead>
                <TableCell className="text-right tabular-nums">{formatAmount(t.opening)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatAmount(t.amounts)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatAmount(t.fees)}</TableCell>
                <TableCell className="text-right tabular-nums">{formatAmount(t.closing)}</TableCell>
                <TableCell className={ok ? 'text-green-800' : 'font-semibold text-red-800'}>
                  {ok ? (
                    <>
                      <span aria-hidden="true">✓ </span>Checked: opening + movements − fees =
                      closing
                    </>
                  ) : (
                    'Does not reconcile: opening + movements − fees ≠ closing'
                  )}
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function StatementLines({ statement }: { statement: LedgerStatementResponse }) {
  if (statement.results.length === 0) return <EmptyState title="No movement in this period" />;
  return (
    <TableContainer label="Movements">
      <Table>
        <TableCaption>
          Every movement in the period, oldest first, with the balance after it
        </TableCaption>
        <TableHeader>
          <TableRow>
            <TableHead>Time</TableHead>
            <TableHead>Asset</TableHead>
            <TableHead>Kind</TableHead>
            <TableHead>Counterparty</TableHead>
            <TableHead className="text-right">Amount</TableHead>
            <TableHead className="text-right">Fee</TableHead>
            <TableHead className="text-right">USD at the time</TableHead>
            <TableHead className="text-right">Balance after</TableHead>
            <TableHead>Reference</TableHead>
            <TableHead>Memo</TableHead>
            <TableHead>Transaction</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {statement.results.map((l) => (
            <TableRow key={l.id}>
              <TableCell className="whitespace-nowrap">
                <DateTime iso={l.at} />
                {l.valueAt ? (
                  // Booked at this period's start because its own period was closed.
                  <span className="block text-xs whitespace-normal text-slate-700">
                    Late: happened <DateTime iso={l.valueAt} />, in a period already closed
                  </span>
                ) : null}
              </TableCell>
              <TableCell>{l.asset}</TableCell>
              <TableCell>{KIND_LABELS[l.kind]}</TableCell>
              <TableCell className="break-all">{l.counterparty ?? '—'}</TableCell>
              <TableCell className="text-right tabular-nums">{formatAmount(l.amount)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatAmount(l.fee)}</TableCell>
              <TableCell className="text-right tabular-nums">{formatUsd(l.usdValue)}</TableCell>
              <TableCell className="text-right tabular-nums">
                {formatAmount(l.balanceAfter)}
              </TableCell>
              <TableCell>{l.reference ?? '—'}</TableCell>
              <TableCell>{l.memo ?? '—'}</TableCell>
              <TableCell>
                {l.transactionId ? (
                  <Link
                    to="/transactions/$transactionId"
                    params={{ transactionId: l.transactionId }}
                    className="font-mono text-xs text-blue-800 underline"
                  >
                    {l.transactionId.slice(0, 8)}
                    <span className="sr-only">{` transaction ${l.transactionId}`}</span>
                  </Link>
                ) : (
                  '—'
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

const KIND_LABELS = {
  AMOUNT: 'Transfer',
  FEE: 'Fee',
  REWARD: 'Staking reward',
  ADJUSTMENT: 'Adjustment',
} as const;
