import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Fragment, useState } from 'react';
import { formatAmount } from '#contract/decimal-format.ts';
import { pathOf } from '#contract/endpoint.ts';
import { paymentRunReconciliationCsv } from '#contract/endpoints/payment-runs.ts';
import {
  describePreApproval,
  paymentRunProgress,
  type PaymentRow,
  type PaymentRun,
} from '#contract/payment-runs.ts';
import { DateTime } from '../../../components/date-time.tsx';
import { ErrorState } from '../../../components/query-state.tsx';
import { Button, buttonVariants } from '../../../components/ui/button.tsx';
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
import { shortAddress } from '../../../lib/labels.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { useRunAction, useUpdatePaymentRow, type RunAction } from '../api/payment-run-mutations.ts';
import { paymentRunQueries } from '../api/payment-run-queries.ts';
import { RowEditor, type RunNames } from './row-editor.tsx';
import { RunProgress } from './run-progress.tsx';
import { RunSimulation } from './run-simulation.tsx';
import { WhenToPay, type WhenToPayChoice } from './when-to-pay.tsx';

/** Until approved a run's rows may change; from then on it is paid. */
const EDITABLE = new Set<PaymentRun['status']>(['DRAFT', 'CHECKED', 'PENDING_APPROVAL']);
const PAID = new Set<PaymentRun['status']>([
  'APPROVED',
  'EXECUTING',
  'PAUSED',
  'COMPLETED',
  'CANCELLED',
  'PARTIALLY_FAILED',
]);

/** What the page offers the member to do with the run as it stands (the server decides). */
function actionsFor(run: PaymentRun): { action: RunAction; label: string; primary?: boolean }[] {
  const failed = paymentRunProgress(run.rows).failed;
  const retry =
    failed > 0 && ['EXECUTING', 'PAUSED', 'PARTIALLY_FAILED'].includes(run.status)
      ? [{ action: 'retry' as const, label: 'Retry failed rows' }]
      : [];
  switch (run.status) {
    case 'DRAFT':
      return [{ action: 'check', label: 'Check again' }];
    case 'CHECKED':
      return [
        { action: 'submit', label: 'Submit for approval', primary: true },
        { action: 'check', label: 'Check again' },
      ];
    case 'APPROVED':
    case 'EXECUTING':
      return [
        { action: 'pause', label: 'Pause' },
        ...retry,
        { action: 'cancel', label: 'Cancel the rest' },
      ];
    case 'PAUSED':
      return [
        { action: 'resume', label: 'Resume', primary: true },
        ...retry,
        { action: 'cancel', label: 'Cancel the rest' },
      ];
    case 'PARTIALLY_FAILED':
      return retry;
    default:
      return [];
  }
}

function useNames(): RunNames {
  const vaults = useQuery(referenceQueries.vaults());
  const contacts = useQuery(referenceQueries.contacts());
  return {
    vaults: (vaults.data?.results ?? []).flatMap((v) =>
      v.id ? [{ id: v.id, name: v.vaultName || v.id }] : [],
    ),
    contacts: (contacts.data?.results ?? []).flatMap((c) =>
      c.id ? [{ id: c.id, name: c.name || c.id }] : [],
    ),
  };
}

function destination(row: PaymentRow, names: RunNames): string {
  if (row.contactId)
    return names.contacts.find((c) => c.id === row.contactId)?.name ?? row.contactId;
  if (row.address) return shortAddress(row.address);
  return row.bankAccountId ? `Bank account ${row.bankAccountId}` : '—';
}

/**
 * `/payment-runs/<id>`: a run's rows with each check error on its row and
 * field, fixable in place while the run is not yet approved; the
 * simulation; submitting it for approval (decided on its approval page, as
 * any held item); then its progress row by row, live, with pause, resume,
 * cancel the rest and retry, and the reconciliation file.
 */
export function PaymentRunPage({
  runId,
  canInitiate,
  onScheduled,
}: {
  runId: string;
  canInitiate: boolean;
  /** The run was scheduled: the draft is now the schedule (its list is where to go). */
  onScheduled?: () => void;
}) {
  const query = useQuery(paymentRunQueries.detail(runId));
  const [when, setWhen] = useState<WhenToPayChoice>('now');
  const names = useNames();
  const [editing, setEditing] = useState<number | null>(null);
  const update = useUpdatePaymentRow(runId);
  const act = useRunAction(runId);

  if (query.isPending)
    return (
      <p role="status" className="text-sm text-slate-700">
        Loading the payment run…
      </p>
    );
  if (query.isError)
    return (
      <ErrorState
        title="The payment run could not be loaded"
        error={query.error}
        onRetry={() => void query.refetch()}
        retrying={query.isFetching}
      />
    );
  const run = query.data;
  const vaultName = (id: string) => names.vaults.find((v) => v.id === id)?.name ?? id;
  const editable = canInitiate && EDITABLE.has(run.status);
  const rowsWithErrors = new Set(run.errors.map((e) => e.row)).size;
  // A schedule chosen: its own form replaces submitting the run now.
  const actions = canInitiate
    ? actionsFor(run).filter((a) => a.action !== 'submit' || when === 'now')
    : [];
  const schedulable = canInitiate && run.status === 'CHECKED' && onScheduled !== undefined;

  return (
    // The first screen the server renders ends here (entry-server.tsx).
    <section
      id="payment-run-page"
      aria-labelledby="payment-run-title"
      className="flex flex-col gap-5"
    >
      <title>{`${run.name} · Payment runs · Custody Console`}</title>
      <p>
        <Link to="/payment-runs" className="text-sm text-blue-800 underline">
          All payment runs
        </Link>
      </p>
      <div className="flex flex-wrap items-center gap-3">
        <h1 id="payment-run-title" className="text-2xl font-semibold text-slate-900">
          {run.name}
        </h1>
        <StatusBadge status={run.status} />
      </div>
      <p className="text-sm text-slate-800">
        {run.rows.length} {run.rows.length === 1 ? 'row' : 'rows'} · made{' '}
        <DateTime iso={run.createdAt} /> · rows digest{' '}
        <span className="font-mono" title={run.rowsDigest}>
          {run.rowsDigest.slice(0, 12)}…
        </span>
      </p>

      {rowsWithErrors > 0 ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-900">
          {rowsWithErrors === 1 ? '1 row needs a fix' : `${rowsWithErrors} rows need a fix`} before
          the run can be submitted: each error is shown on its row.
        </p>
      ) : null}

      {run.preApproved ? (
        <p className="rounded-md border border-blue-300 bg-blue-50 p-3 text-sm text-blue-950">
          {describePreApproval(run.preApproved)}, within its cap: no vote of its own was needed.
        </p>
      ) : null}

      {run.status === 'PENDING_APPROVAL' ? (
        <p className="flex flex-wrap items-center gap-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
          Waiting for approval: approvers decide the whole run, once, on its approval page.
          <Link
            to="/approvals/held/$entityId"
            params={{ entityId: run.id }}
            className={buttonVariants({ size: 'sm' })}
          >
            Open its approval
          </Link>
        </p>
      ) : null}

      {schedulable ? (
        <WhenToPay runId={run.id} choice={when} onChoice={setWhen} onScheduled={onScheduled} />
      ) : null}
      {actions.length ? (
        <div className="flex flex-wrap gap-2" role="group" aria-label="Run actions">
          {actions.map((a) => (
            <Button
              key={a.action}
              variant={a.action === 'cancel' ? 'destructive' : a.primary ? 'primary' : 'secondary'}
              disabled={act.isPending}
              onClick={() => act.mutate(a.action)}
            >
              {a.label}
            </Button>
          ))}
        </div>
      ) : null}
      {act.isError ? (
        <p role="alert" className="text-sm text-red-800">
          {describeError(act.error)}
        </p>
      ) : null}

      {PAID.has(run.status) ? (
        <section aria-labelledby="run-progress-title" className="flex flex-col gap-2">
          <h2 id="run-progress-title" className="text-lg font-semibold text-slate-900">
            Progress
          </h2>
          <RunProgress run={run} />
          <p>
            <a
              href={pathOf(paymentRunReconciliationCsv, { runId: run.id })}
              download
              className="text-sm text-blue-800 underline"
            >
              Download the reconciliation file (CSV)
            </a>
          </p>
        </section>
      ) : null}

      {run.simulation ? (
        <section aria-labelledby="run-simulation-title" className="flex flex-col gap-2">
          <h2 id="run-simulation-title" className="text-lg font-semibold text-slate-900">
            Simulation
          </h2>
          <RunSimulation simulation={run.simulation} vaultName={vaultName} />
        </section>
      ) : null}

      <section aria-labelledby="run-rows-title" className="flex flex-col gap-2">
        <h2 id="run-rows-title" className="text-lg font-semibold text-slate-900">
          Rows
        </h2>
        <TableContainer label="Rows of the run">
          <Table>
            <TableCaption>
              The run’s rows, in order, with their check errors and status
            </TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead>Row</TableHead>
                <TableHead>From</TableHead>
                <TableHead>To</TableHead>
                <TableHead>Amount</TableHead>
                <TableHead>Reference</TableHead>
                <TableHead>Status</TableHead>
                <TableHead>
                  <span className="sr-only">Actions</span>
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {run.rows.map((row) => (
                <Fragment key={row.index}>
                  <TableRow
                    aria-label={`Row ${row.index}`}
                    className={row.errors.length ? 'bg-red-50' : undefined}
                  >
                    <TableHead scope="row">{row.index}</TableHead>
                    <TableCell>{vaultName(row.sourceVaultId)}</TableCell>
                    <TableCell>{destination(row, names)}</TableCell>
                    <TableCell className="tabular-nums">
                      {formatAmount(row.amount)} {row.asset}{' '}
                      <span className="text-slate-700">on {row.blockChain}</span>
                    </TableCell>
                    <TableCell>{row.reference}</TableCell>
                    <TableCell>
                      {row.errors.length ? (
                        <ul className="flex flex-col gap-1 text-red-800">
                          {row.errors.map((e) => (
                            <li key={`${e.field}:${e.code}`}>
                              <span className="font-medium">{e.field}</span>:{' '}
                              <span>{e.message}</span>
                            </li>
                          ))}
                        </ul>
                      ) : (
                        <StatusBadge status={row.status} />
                      )}
                    </TableCell>
                    <TableCell>
                      {row.transactionId ? (
                        <Link
                          to="/transactions/$transactionId"
                          params={{ transactionId: row.transactionId }}
                          className="text-blue-800 underline"
                        >
                          <span className="sr-only">Row {row.index}: </span>transaction
                        </Link>
                      ) : editable && editing !== row.index ? (
                        <Button
                          size="sm"
                          variant={row.errors.length ? 'primary' : 'secondary'}
                          onClick={() => {
                            update.reset();
                            setEditing(row.index);
                          }}
                        >
                          {row.errors.length ? `Fix row ${row.index}` : `Edit row ${row.index}`}
                        </Button>
                      ) : null}
                    </TableCell>
                  </TableRow>
                  {editable && editing === row.index ? (
                    <TableRow>
                      <TableCell colSpan={7}>
                        <RowEditor
                          row={row}
                          names={names}
                          saving={update.isPending}
                          error={update.error}
                          onCancel={() => setEditing(null)}
                          onSave={(input) =>
                            update.mutate(
                              { index: row.index, row: input },
                              {
                                onSuccess: (next) => {
                                  const after = next.rows.find((r) => r.index === row.index);
                                  // Fixed: the editor closes; still wrong: it stays, showing why.
                                  if (!after?.errors.length) setEditing(null);
                                },
                              },
                            )
                          }
                        />
                      </TableCell>
                    </TableRow>
                  ) : null}
                </Fragment>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </section>
    </section>
  );
}
