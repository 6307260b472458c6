import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { Transaction } from '#contract/transaction.ts';
import { Button } from '../../../components/ui/button.tsx';
import { InboxItemNavigation } from '../../../components/inbox-item-navigation.tsx';
import { usePageShortcut } from '../../../components/shortcuts.tsx';
import { useSession } from '../../../lib/session-queries.ts';
import { can } from '../../../lib/permissions.ts';
import { useSendOnce } from '../../../lib/use-send-once.ts';
import {
  useDecideTransaction,
  type Decision as DecisionVariables,
} from '../api/decide-transaction.ts';
import { OnDemandDialog, onDemand } from '../../../components/on-demand.tsx';
import { ApprovalCardFor } from '../../../components/approval-card.tsx';
import { Panel } from '../../../components/panel.tsx';
import {
  ApprovalProgressFor,
  approvedBy,
  LinkedAccountsNote,
  YouApproved,
} from '../../../components/approval-progress.tsx';
import { useApprovalProgress } from '../../../lib/approval-progress-queries.ts';

/**
 * Approve or decline a PENDING transaction from its page. Who may decide is
 * the server's rule (approver role, never the creator); the page offers the
 * buttons only to those the server will accept, and says why to the others.
 * Opened from the approvals inbox, the page also leads to the inbox's
 * previous and next items, and once decided offers the next one to decide
 * (components/inbox-item-navigation.tsx).
 */
export function DecisionPanel({
  transaction: tx,
  extras,
}: {
  transaction: Transaction;
  /** What another feature adds to what the approver decides on (a ramp's quote), given by the route. */
  extras?: DecisionExtras | undefined;
}) {
  const [done, setDone] = useState<string | null>(null);
  const outcomeId = useId();
  // The decision lives here, not in its dialog: once it succeeds the transaction
  // is no longer pending and the dialogs unmount, and a mutation's callbacks
  // run only while the component that sent it is mounted.
  const decide = useDecideTransaction(tx.id ?? '');
  const send = useSendOnce(decide);
  const decision = { decide, send };
  // One shape before and after the decision, so the inbox's part keeps its place: the outcome,
  // then the way on through the inbox, then (while pending) the decision itself.
  // Shown while still pending too: an approval an approval policy holds for more says so.
  const outcome = done ? <DecisionDone id={outcomeId} message={done} /> : null;
  const inbox = (
    <InboxItemNavigation
      current={{ kind: 'TRANSACTION', id: tx.id ?? '', createdAt: tx.createdAt }}
      decided={done !== null}
      outcomeId={outcomeId}
    />
  );
  return (
    <>
      {outcome}
      {inbox}
      {tx.status === 'PENDING' ? (
        <PendingDecision transaction={tx} decision={decision} onDone={setDone} extras={extras} />
      ) : null}
    </>
  );
}

/** The decision itself, while the transaction waits for one: its buttons, or why there are none. */
function PendingDecision({
  transaction: tx,
  decision,
  onDone,
  extras,
}: {
  transaction: Transaction;
  decision: Decision;
  onDone: (message: string) => void;
  extras?: DecisionExtras | undefined;
}) {
  const session = useSession();
  const progress = useApprovalProgress(tx.id ?? '');
  const youApprovedAt = approvedBy(progress.data, session?.member.id);
  let blocked: ReactNode = null;
  if (!can(session, 'approve')) {
    blocked = `Approving or declining needs the approver or admin role; you are signed in as ${session?.member.role ?? 'a member without it'}.`;
  } else if (session && tx.createdById === session.member.id) {
    blocked = 'You created this transaction, so another approver must decide it (four-eyes rule).';
  } else if (youApprovedAt && progress.data?.state === 'PENDING') {
    // Approved by this member and held for more: nothing is left for them to decide.
    blocked = <YouApproved at={youApprovedAt} progress={progress.data} />;
  }
  return (
    <Panel title="Awaiting approval" tone="attention">
      <div className="mt-1">
        <ApprovalProgressFor entityId={tx.id ?? ''} />
      </div>
      {/* What the approver decides on, as the server computed it: the same card the initiator reviewed. */}
      <ApprovalCardFor entityId={tx.id ?? ''} />
      {extras?.(tx)}
      {blocked ? (
        <p className="mt-1 text-sm text-slate-800" data-testid="decision-blocked">
          {blocked}
        </p>
      ) : (
        <>
          <div className="mt-2">
            <LinkedAccountsNote entityId={tx.id ?? ''} />
          </div>
          <div className="mt-2 flex flex-wrap gap-2">
            <ApproveDialog transaction={tx} decision={decision} onDone={onDone} extras={extras} />
            <DeclineDialog transaction={tx} decision={decision} onDone={onDone} />
          </div>
        </>
      )}
    </Panel>
  );
}

/**
 * What the decision did. The dialog's trigger is gone with the pending
 * state, so focus (which the dialog returns to its trigger) would fall to
 * <body>: it is put here instead, where the outcome is read — unless the
 * page was opened from the inbox, whose next item then takes focus and is
 * read with this outcome (aria-describedby).
 */
function DecisionDone({ id, message }: { id: string; message: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  // Unless the inbox's next item has taken focus already (it is read with this outcome).
  useEffect(() => {
    if (!document.activeElement || document.activeElement === document.body) ref.current?.focus();
  }, []);
  return (
    <p
      ref={ref}
      id={id}
      tabIndex={-1}
      role="status"
      className="text-sm text-green-800 focus:outline-none"
    >
      {message}
    </p>
  );
}

export interface Decision {
  decide: ReturnType<typeof useDecideTransaction>;
  send: (
    variables: DecisionVariables,
    options?: Parameters<ReturnType<typeof useDecideTransaction>['mutate']>[1],
  ) => void;
}
export type DecisionDialogProps = {
  transaction: Transaction;
  decision: Decision;
  onDone: (message: string) => void;
  extras?: DecisionExtras | undefined;
};

/** A feature's part of what the approver decides on (a ramp's quote), given by the route. */
export type DecisionExtras = (transaction: Transaction) => ReactNode;

/**
 * The dialog's state and its one decision: `decided` closes it and says
 * what happened; closing it any other way clears a refusal.
 */
function useDecisionDialog({ decision, onDone }: DecisionDialogProps) {
  const [open, setOpen] = useState(false);
  const { decide, send } = decision;
  const decided = (message: string) => {
    setOpen(false);
    onDone(message);
  };
  return { decide, send, decided, dialog: { open, onOpenChange: setOpen, onClosed: decide.reset } };
}

const decisionDialogs = onDemand(() => import('./decision-dialogs.tsx'));

/** The dialog's props as the on-demand module takes them (decision-dialogs.tsx). */
export type DecisionDialogState = DecisionDialogProps &
  Pick<ReturnType<typeof useDecisionDialog>, 'decide' | 'send' | 'decided' | 'dialog'> & {
    onCloseAutoFocus: (event: Event) => void;
  };

function ApproveDialog(props: DecisionDialogProps) {
  const state = useDecisionDialog(props);
  const { dialog } = state;
  usePageShortcut('a', 'Approve this transaction (asks to confirm)', () =>
    dialog.onOpenChange(true),
  );
  return (
    <OnDemandDialog
      part={decisionDialogs}
      open={dialog.open}
      onOpenChange={dialog.onOpenChange}
      trigger={<Button variant="primary">Approve…</Button>}
      what="the approval"
    >
      {(m, returnFocus) => <m.ApproveDialog {...props} {...state} onCloseAutoFocus={returnFocus} />}
    </OnDemandDialog>
  );
}

function DeclineDialog(props: DecisionDialogProps) {
  const state = useDecisionDialog(props);
  const { dialog } = state;
  usePageShortcut('d', 'Decline this transaction (asks for a reason)', () =>
    dialog.onOpenChange(true),
  );
  return (
    <OnDemandDialog
      part={decisionDialogs}
      open={dialog.open}
      onOpenChange={dialog.onOpenChange}
      trigger={<Button variant="destructive">Decline…</Button>}
      what="the decline"
    >
      {(m, returnFocus) => <m.DeclineDialog {...props} {...state} onCloseAutoFocus={returnFocus} />}
    </OnDemandDialog>
  );
}
