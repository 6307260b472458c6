import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { chainInfo, chainLabel } from '#contract/chains.ts';
import { formatAmount } from '#contract/decimal-format.ts';
import type { Transaction } from '#contract/transaction.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ActionDialog } from '../../../components/action-dialog.tsx';
import { InboxItemNavigation } from '../../../components/inbox-item-navigation.tsx';
import { usePageShortcut } from '../../../components/shortcuts.tsx';
import { DialogActions, DialogClose } from '../../../components/ui/dialog.tsx';
import { describedBy, Field } from '../../../components/ui/field.tsx';
import { humanize } from '../../../lib/labels.ts';
import { useSession } from '../../../lib/session-queries.ts';
import { can } from '../../../lib/permissions.ts';
import { useSendOnce } from '../../../lib/use-send-once.ts';
import {
  DeclineForm,
  useDecideTransaction,
  type Decision as DecisionVariables,
} from '../api/decide-transaction.ts';
import { ContractCallRows } from './contract-call-details.tsx';
import { Initiator } from './people.tsx';
import { FeeCharged, UsdEquivalent } from './usd-equivalent.tsx';
import { CostFactsFor } from '../../../components/approval-cost.tsx';
import { ApprovalCardFor } from '../../../components/approval-card.tsx';
import {
  CardToSignView,
  SignedDecisionProblem,
  useCardToSign,
} from '../../../components/signed-decision.tsx';
import { Panel } from '../../../components/panel.tsx';
import { Fact } from '../../../components/fact.tsx';
import { PartySummary } from '../../../components/party-summary.tsx';
import { heldApprovalText } from '#contract/approvals.ts';
import {
  ApprovalProgressFor,
  approvedBy,
  LinkedAccountsNote,
  YouApproved,
} from '../../../components/approval-progress.tsx';
import { useApprovalProgress } from '../../../lib/approval-progress-queries.ts';
import { Textarea } from '../../../components/ui/input.tsx';
import { describeTransaction } from '../../../lib/transaction-summary.ts';

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

/**
 * What the member is deciding: everything the decision rests on, checked
 * before money moves — who asked, from where, to whom (and whether that is an
 * approved contact), how much and what it is worth, the fee of its tier and
 * the total leaving (with a warning when the fee is more than what is sent),
 * and for a contract call what it calls (decoded where the console knows the function).
 */
export function DecisionSummary({ transaction: tx }: { transaction: Transaction }) {
  const contractCall = tx.category === 'CONTRACT_CALL';
  return (
    <dl className="grid grid-cols-[9rem_1fr] gap-x-3 gap-y-1 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
      <Fact term="What">
        {humanize(tx.category) || 'Transaction'}
        {tx.subCategory && tx.subCategory !== tx.category ? ` · ${humanize(tx.subCategory)}` : ''}
        {contractCall ? <span className="block font-medium">{describeTransaction(tx)}</span> : null}
      </Fact>
      <Fact term="Initiator">
        <Initiator transaction={tx} />
      </Fact>
      <Fact term="From">
        <PartySummary party={tx.source} none="—" />
      </Fact>
      {contractCall ? null : (
        <Fact term="To">
          <PartySummary party={tx.destination} none="—" />
        </Fact>
      )}
      <Fact term={contractCall ? 'Value sent' : 'Amount'}>
        <span className="font-medium tabular-nums">
          {contractCall && (!tx.amount || isZeroAmount(tx.amount))
            ? `None: the call sends no ${nativeOf(tx)}`
            : tx.amount
              ? `${formatAmount(tx.amount)} ${tx.asset ?? nativeOf(tx)}`
              : '—'}
        </span>
        <UsdEquivalent value={tx.amountInUSD} />
      </Fact>
      <Fact term="Chain">{chainLabel(tx.blockChain) || '—'}</Fact>
      {contractCall ? <ContractCallRows transaction={tx} Row={Fact} /> : null}
      {tx.quoteResponse ? (
        // A ramp's fee is its provider's, inside what leaves; it pays no network fee tier.
        <Fact term="Provider fee">
          <FeeCharged fees={tx.fees} none="None stated" />
        </Fact>
      ) : (
        // The fee of its tier and what leaves in all, as the server works them out.
        <CostFactsFor entityId={tx.id ?? ''} />
      )}
      {tx.memo ? <Fact term="Memo">{tx.memo}</Fact> : null}
    </dl>
  );
}

const isZeroAmount = (amount: string) => !/[1-9]/.test(amount);
const nativeOf = (tx: Transaction) => chainInfo(tx.blockChain)?.nativeAsset ?? 'native coin';

interface Decision {
  decide: ReturnType<typeof useDecideTransaction>;
  send: (
    variables: DecisionVariables,
    options?: Parameters<ReturnType<typeof useDecideTransaction>['mutate']>[1],
  ) => void;
}
type DecisionDialogProps = {
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

function ApproveDialog(props: DecisionDialogProps) {
  const { decide, send, decided, dialog } = useDecisionDialog(props);
  usePageShortcut('a', 'Approve this transaction (asks to confirm)', () =>
    dialog.onOpenChange(true),
  );
  return (
    <ActionDialog {...dialog} {...APPROVE}>
      <ApproveBody {...props} decide={decide} send={send} decided={decided} />
    </ActionDialog>
  );
}

type DialogBodyProps = DecisionDialogProps &
  Pick<ReturnType<typeof useDecisionDialog>, 'decide' | 'send' | 'decided'>;

/**
 * Mounted as the dialog opens: the card it shows (and signs over) is the one
 * read then, replaced only with what changed said (components/signed-decision.tsx).
 */
function ApproveBody({ transaction: tx, extras, decide, send, decided }: DialogBodyProps) {
  const card = useCardToSign(tx.id ?? '');
  const shown = card.shown;
  return (
    <>
      <LinkedAccountsNote entityId={tx.id ?? ''} />
      <DecisionSummary transaction={tx} />
      {extras?.(tx)}
      <CardToSignView card={card} approve />
      <div className="mt-3">
        <SignedDecisionProblem card={card} error={decide.error} approve />
      </div>
      <DialogActions>
        <DialogClose asChild>
          <Button>Cancel</Button>
        </DialogClose>
        <Button
          variant="primary"
          disabled={decide.isPending || !shown}
          onClick={() => {
            if (!shown) return;
            card.acknowledge();
            send(
              // A ramp's approval names the quote shown: the server refuses it if the quote changed.
              tx.quoteResponse?.quoteId
                ? { action: 'approve', quoteId: tx.quoteResponse.quoteId, digest: shown.digest }
                : { action: 'approve', digest: shown.digest },
              {
                onSuccess: (answer) =>
                  decided(
                    heldApprovalText(answer) ?? 'Approved. The timeline follows it to the chain.',
                  ),
                onError: card.refused,
              },
            );
          }}
        >
          {decide.isPending ? 'Approving…' : 'Approve transaction'}
        </Button>
      </DialogActions>
    </>
  );
}

function DeclineDialog(props: DecisionDialogProps) {
  const { decide, send, decided, dialog } = useDecisionDialog(props);
  usePageShortcut('d', 'Decline this transaction (asks for a reason)', () =>
    dialog.onOpenChange(true),
  );
  return (
    <ActionDialog {...dialog} {...DECLINE}>
      <DeclineBody {...props} decide={decide} send={send} decided={decided} />
    </ActionDialog>
  );
}

function DeclineBody({ transaction: tx, decide, send, decided }: DialogBodyProps) {
  const card = useCardToSign(tx.id ?? '');
  const form = useForm<DeclineForm>({
    resolver: zodResolver(DeclineForm),
    defaultValues: { reason: '' },
  });
  const error = form.formState.errors.reason?.message;
  return (
    <>
      <LinkedAccountsNote entityId={tx.id ?? ''} />
      <DecisionSummary transaction={tx} />
      <CardToSignView card={card} approve={false} />
      <form
        className="mt-4"
        noValidate
        onSubmit={form.handleSubmit(({ reason }) => {
          if (!card.shown) return;
          card.acknowledge();
          send(
            { action: 'reject', reason, digest: card.shown.digest },
            {
              onSuccess: () => {
                form.reset();
                decided('Declined.');
              },
              onError: card.refused,
            },
          );
        })}
      >
        <Field
          id="decline-reason"
          label="Reason for declining"
          error={error}
          hint="Required; at most 500 characters."
        >
          <Textarea
            id="decline-reason"
            rows={3}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy('decline-reason', { hint: true, error })}
            className="rounded-md border border-slate-400 px-3 py-2 text-sm focus-visible:outline-2 focus-visible:outline-blue-700 aria-invalid:border-red-700"
            {...form.register('reason')}
          />
        </Field>
        <div className="mt-3">
          <SignedDecisionProblem card={card} error={decide.error} approve={false} />
        </div>
        <DialogActions>
          <DialogClose asChild>
            <Button>Cancel</Button>
          </DialogClose>
          <Button type="submit" variant="destructive" disabled={decide.isPending || !card.shown}>
            {decide.isPending ? 'Declining…' : 'Decline transaction'}
          </Button>
        </DialogActions>
      </form>
    </>
  );
}
