import { useId, useRef, useState, type ReactNode } from 'react';
import {
  heldApprovalText,
  type ApprovalAction,
  type ApprovalActionResponse,
} from '#contract/approvals.ts';
import { humanize } from '../lib/labels.ts';
import { useApprovalProgress } from '../lib/approval-progress-queries.ts';
import {
  ApprovalProgressFor,
  approvedBy,
  LinkedAccountsNote,
  YouApproved,
} from './approval-progress.tsx';
import type { InboxKey } from '../lib/approval-inbox-items.ts';
import { InboxItemNavigation } from './inbox-item-navigation.tsx';
import { Button } from './ui/button.tsx';
import { OnDemandState, useOnDemand, type OnDemand } from './on-demand.tsx';

/** What the page's dialog needs to open, close and report (decide-dialog.tsx). */
export interface DecisionDialogControls {
  action: ApprovalAction;
  onOpenChange: (open: boolean) => void;
  onCloseAutoFocus: (event: Event) => void;
  onDecided: (answer: ApprovalActionResponse) => void;
}

const DECISIONS: ReadonlyArray<{
  action: ApprovalAction;
  variant: 'primary' | 'destructive';
  label: string;
}> = [
  { action: 'approve', variant: 'primary', label: 'Approve…' },
  { action: 'reject', variant: 'destructive', label: 'Decline…' },
];

/** What a decision did: an approval a policy holds for more says so; otherwise the new status. */
function outcomeOf(answer: ApprovalActionResponse, action: ApprovalAction): string {
  const held = heldApprovalText(answer);
  if (held) return held;
  const status = answer.status ?? (action === 'approve' ? 'APPROVED' : 'REJECTED');
  return `${humanize(status === 'REJECTED' ? 'DECLINED' : status)}: the decision is recorded.`;
}

/** The page's dialog, given what it needs to open, close and report. */
function PageDialog<M>({
  module,
  render,
  controls,
}: {
  module: M;
  render: (module: M, controls: DecisionDialogControls) => ReactNode;
  controls: DecisionDialogControls;
}) {
  return render(module, controls);
}

/**
 * The decision on a proposal (a bank account, a contact, a change to a
 * contact) on its page, while one waits: the approvals collected under its
 * rule and who may still approve (for every member), and Approve / Decline
 * for an approver who did not propose it; the proposer is told another
 * member must decide, and an approver who approved it already (a rule holds
 * it for more) when they did and whom it waits on. The server refuses the
 * same cases whatever the page
 * offers. Opened from the approvals inbox, it leads to the previous and next
 * items, and after a decision to the next one.
 */
export function ProposalDecision<M>({
  current,
  waiting,
  canApprove,
  own,
  memberId,
  proposedWhat = 'this',
  prompt,
  dialogs,
  dialog,
}: {
  current: InboxKey;
  /** Something waits for a decision. */
  waiting: boolean;
  canApprove: boolean;
  /** The member proposed what waits. */
  own: boolean;
  /** The signed-in member: their approval, if the item's progress holds one, is their decision. */
  memberId: string | undefined;
  /** What they proposed, to tell them so: "this account". */
  proposedWhat?: string;
  /** Said above the buttons: what to check before approving. */
  prompt: string;
  /**
   * The module of the page's confirmation dialog, loaded when an approver
   * opens it (components/on-demand.tsx): a member who only reads the page
   * never fetches it, nor the dialog, passkey and card-signing code it brings.
   */
  dialogs: OnDemand<M>;
  /** The page's confirmation dialog for `action`, from that module. */
  dialog: (module: M, controls: DecisionDialogControls) => ReactNode;
}) {
  const [action, setAction] = useState<ApprovalAction | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const outcomeRef = useRef<HTMLParagraphElement>(null);
  const outcomeId = useId();
  const decided = useRef(false);
  const opener = useRef<HTMLButtonElement | null>(null);
  // Fetched on the buttons' hover or focus, or as one is pressed; rendered apart from them, so it
  // stays mounted (and its decision's answer is heard) while the page's status moves on.
  const loaded = useOnDemand(dialogs, action !== null, () => setAction(null));
  const progress = useApprovalProgress(current.id, waiting && canApprove);
  const youApprovedAt = approvedBy(progress.data, memberId);

  let body = null;
  if (waiting && canApprove && youApprovedAt && progress.data?.state === 'PENDING') {
    // Approved by this member and held for more: nothing is left for them to decide.
    body = (
      <p className="rounded-md border border-slate-300 bg-white p-3 text-sm text-slate-800">
        <YouApproved at={youApprovedAt} progress={progress.data} />
      </p>
    );
  } else if (waiting && canApprove && own) {
    body = (
      <p className="rounded-md border border-slate-300 bg-white p-3 text-sm text-slate-800">
        You proposed {proposedWhat}, so another member must approve or decline it.
      </p>
    );
  } else if (waiting && canApprove) {
    body = (
      <div className="flex flex-col gap-3 rounded-md border border-amber-300 bg-amber-50 p-4">
        <p className="text-sm text-slate-900">{prompt}</p>
        <LinkedAccountsNote entityId={current.id} />
        <div className="flex flex-wrap gap-2">
          {DECISIONS.map(({ action: choice, variant, label }) => (
            <Button
              key={choice}
              variant={variant}
              aria-haspopup="dialog"
              aria-expanded={action === choice}
              onPointerEnter={loaded.preload}
              onFocus={loaded.preload}
              onClick={(event) => {
                // Focus returns here when the dialog closes.
                opener.current = event.currentTarget;
                setAction(choice);
              }}
            >
              {label}
            </Button>
          ))}
          <OnDemandState
            what={action === 'reject' ? 'the decline' : 'the approval'}
            loading={loaded.loading}
            failed={loaded.failed}
          />
        </div>
      </div>
    );
  }
  // The outcome keeps its place while the page refreshes, so focus stays on it.
  return (
    <>
      {outcome ? (
        <p
          ref={outcomeRef}
          id={outcomeId}
          tabIndex={-1}
          role="status"
          className="rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900 focus:outline-2 focus:outline-blue-700"
        >
          {outcome}
        </p>
      ) : null}
      <InboxItemNavigation current={current} decided={outcome !== null} outcomeId={outcomeId} />
      {waiting ? (
        <div className="rounded-md border border-slate-300 bg-white p-3">
          <ApprovalProgressFor entityId={current.id} />
        </div>
      ) : null}
      {/* Decided here: an approval a policy holds leaves it waiting, but not for this member. */}
      {outcome ? null : body}
      {action && loaded.module ? (
        <PageDialog
          module={loaded.module}
          render={dialog}
          controls={{
            action,
            onOpenChange: (open) => !open && setAction(null),
            onCloseAutoFocus: (event) => {
              // Radix returns focus to a DialogTrigger, and this dialog has none (it is
              // mounted to open): left alone, focus would fall to <body>. Cancelled: back
              // to the button that opened it. Decided: those buttons are going, so to
              // what happened — unless the inbox's next item has taken it already (it is
              // read with the outcome).
              event.preventDefault();
              if (!decided.current) opener.current?.focus();
              else if (!document.activeElement || document.activeElement === document.body)
                outcomeRef.current?.focus();
            },
            onDecided: (answer) => {
              decided.current = true;
              setOutcome(outcomeOf(answer, action));
              setAction(null);
            },
          }}
        />
      ) : null}
    </>
  );
}
