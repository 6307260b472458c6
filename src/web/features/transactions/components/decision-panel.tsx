import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { chainLabel } from '../../../../contract/chains.ts';
import { formatAmount } from '../../../../contract/decimal-format.ts';
import type { Transaction } from '../../../../contract/transaction.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ActionDialog, MutationError } from '../../../components/action-dialog.tsx';
import { usePageShortcut } from '../../../components/shortcuts.tsx';
import { DialogActions, DialogClose } from '../../../components/ui/dialog.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { humanize } from '../../../lib/labels.ts';
import { useSession } from '../../../lib/session-queries.ts';
import { can } from '../../../lib/permissions.ts';
import { DeclineForm, useDecideTransaction } from '../api/decide-transaction.ts';
import { UsdEquivalent } from './usd-equivalent.tsx';
import { Panel } from '../../../components/panel.tsx';

/**
 * Approve or decline a PENDING transaction from its page. Who may decide is
 * the server's rule (approver role, never the creator); the page offers the
 * buttons only to those the server will accept, and says why to the others.
 */
export function DecisionPanel({ transaction: tx }: { transaction: Transaction }) {
  const session = useSession();
  const [done, setDone] = useState<string | null>(null);
  if (tx.status !== 'PENDING') {
    return done ? (
      <p role="status" className="text-sm text-green-800">
        {done}
      </p>
    ) : null;
  }

  let blocked: string | null = null;
  if (!can(session, 'approve')) {
    blocked = `Approving or declining needs the approver or admin role; you are signed in as ${session?.member.role ?? 'a member without it'}.`;
  } else if (session && tx.createdById === session.member.id) {
    blocked = 'You created this transaction, so another approver must decide it (four-eyes rule).';
  }

  return (
    <Panel title="Awaiting approval" tone="attention">
      {blocked ? (
        <p className="mt-1 text-sm text-slate-800" data-testid="decision-blocked">
          {blocked}
        </p>
      ) : (
        <div className="mt-2 flex flex-wrap gap-2">
          <ApproveDialog transaction={tx} onDone={setDone} />
          <DeclineDialog transaction={tx} onDone={setDone} />
        </div>
      )}
    </Panel>
  );
}

/** What the member is deciding: the figures they must check before money moves. */
function DecisionSummary({ transaction: tx }: { transaction: Transaction }) {
  const destination = tx.destination;
  return (
    <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
      <dt className="text-slate-700">Amount</dt>
      <dd className="font-medium tabular-nums">
        {tx.amount ? `${formatAmount(tx.amount)} ${tx.asset ?? ''}` : '—'}
        <UsdEquivalent value={tx.amountInUSD} />
      </dd>
      <dt className="text-slate-700">Chain</dt>
      <dd>{chainLabel(tx.blockChain) || '—'}</dd>
      <dt className="text-slate-700">Destination</dt>
      <dd className="min-w-0">
        {destination?.name ?? humanize(destination?.type) ?? '—'}
        {destination?.address ? (
          <span className="block font-mono text-xs break-all">{destination.address}</span>
        ) : null}
      </dd>
      <dt className="text-slate-700">Fee tier</dt>
      <dd>{tx.gasParams?.feeTier ? humanize(tx.gasParams.feeTier) : 'Not stated'}</dd>
      {tx.fees?.amount ? (
        <>
          <dt className="text-slate-700">Fee</dt>
          <dd className="tabular-nums">
            {formatAmount(tx.fees.amount)} {tx.fees.asset}
          </dd>
        </>
      ) : null}
    </dl>
  );
}

type DecisionDialogProps = { transaction: Transaction; onDone: (message: string) => void };

/**
 * The dialog's state and its one decision: `decided` closes it and says
 * what happened; closing it any other way clears a refusal.
 */
function useDecisionDialog(tx: Transaction, onDone: (message: string) => void) {
  const [open, setOpen] = useState(false);
  const decide = useDecideTransaction(tx.id ?? '');
  const decided = (message: string) => {
    setOpen(false);
    onDone(message);
  };
  return { decide, decided, dialog: { open, onOpenChange: setOpen, onClosed: decide.reset } };
}

const APPROVE = {
  trigger: <Button variant="primary">Approve…</Button>,
  title: 'Approve this transaction?',
  description: 'Once approved it is signed and sent to the chain. Check the figures.',
};

const DECLINE = {
  trigger: <Button variant="destructive">Decline…</Button>,
  title: 'Decline this transaction?',
  description: 'A declined transaction never moves funds. The reason is kept with it.',
};

function ApproveDialog({ transaction: tx, onDone }: DecisionDialogProps) {
  const { decide, decided, dialog } = useDecisionDialog(tx, onDone);
  usePageShortcut('a', 'Approve this transaction (asks to confirm)', () =>
    dialog.onOpenChange(true),
  );
  return (
    <ActionDialog {...dialog} {...APPROVE}>
      <DecisionSummary transaction={tx} />
      <MutationError error={decide.error} />
      <DialogActions>
        <DialogClose asChild>
          <Button>Cancel</Button>
        </DialogClose>
        <Button
          variant="primary"
          disabled={decide.isPending}
          onClick={() =>
            decide.mutate(
              { action: 'approve' },
              { onSuccess: () => decided('Approved. The timeline follows it to the chain.') },
            )
          }
        >
          {decide.isPending ? 'Approving…' : 'Approve transaction'}
        </Button>
      </DialogActions>
    </ActionDialog>
  );
}

function DeclineDialog({ transaction: tx, onDone }: DecisionDialogProps) {
  const { decide, decided, dialog } = useDecisionDialog(tx, onDone);
  usePageShortcut('d', 'Decline this transaction (asks for a reason)', () =>
    dialog.onOpenChange(true),
  );
  const form = useForm<DeclineForm>({
    resolver: zodResolver(DeclineForm),
    defaultValues: { reason: '' },
  });
  const error = form.formState.errors.reason?.message;
  return (
    <ActionDialog {...dialog} {...DECLINE}>
      <DecisionSummary transaction={tx} />
      <form
        className="mt-4"
        noValidate
        onSubmit={form.handleSubmit(({ reason }) =>
          decide.mutate(
            { action: 'reject', reason },
            {
              onSuccess: () => {
                form.reset();
                decided('Declined.');
              },
            },
          ),
        )}
      >
        <Field
          id="decline-reason"
          label="Reason for declining"
          error={error}
          hint="Required; at most 500 characters."
        >
          <textarea
            id="decline-reason"
            rows={3}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy('decline-reason', { hint: true, error })}
            className="rounded-md border border-slate-400 px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-blue-700 aria-invalid:border-red-700"
            {...form.register('reason')}
          />
        </Field>
        <MutationError error={decide.error} />
        <DialogActions>
          <DialogClose asChild>
            <Button>Cancel</Button>
          </DialogClose>
          <Button type="submit" variant="destructive" disabled={decide.isPending}>
            {decide.isPending ? 'Declining…' : 'Decline transaction'}
          </Button>
        </DialogActions>
      </form>
    </ActionDialog>
  );
}
