import { useId, useState, type ReactNode } from 'react';
import type { ApprovalAction } from '#contract/approvals.ts';

/** The card a decision is signed over, as the dialog hands it to the caller's mutation. */
interface SignedOver {
  digest: string;
  refused: (error: unknown) => void;
}
import { DeclineReasonField } from './decline-reason-field.tsx';
import { CardToSignView, SignedDecisionProblem, useCardToSign } from './signed-decision.tsx';
import { Button } from './ui/button.tsx';
import { Dialog, DialogActions, DialogClose, DialogContent } from './ui/dialog.tsx';

/**
 * The confirmation before a decision on a proposal (a bank account, a
 * contact): what is decided on, the approval card the decision is signed
 * over (components/signed-decision.tsx), and, to decline, the reason the
 * proposer will read (required; its absence announced and focused). The
 * caller sends the decision once (`onConfirm`, through use-send-once) with
 * the shown card's digest, and says whether it is on its way and why it was
 * refused. Mount it to open it.
 */
export function DecideDialog({
  entityId,
  action,
  what,
  description,
  children,
  reasonMissing,
  labels,
  sending,
  error,
  canConfirm = true,
  onConfirm,
  onOpenChange,
  onCloseAutoFocus,
}: {
  /** The item decided on: its approval card is what the decision is signed over. */
  entityId: string;
  action: ApprovalAction;
  /** What is decided, in the title: "Approve {what}?". */
  what: string;
  description: string;
  /** What the decision rests on: the account's numbers, the contact's address. */
  children: ReactNode;
  /** Said when a decline has no reason: where the proposer will read it. */
  reasonMissing: string;
  /** The confirm button's words: "Approve bank account", "Decline". */
  labels: { approve: string; reject: string };
  sending: boolean;
  error: Error | null;
  /** Approving may wait for something (the full numbers). */
  canConfirm?: boolean;
  /**
   * The decision, once: with the trimmed reason to decline, and the card it
   * is signed over (`refused` is the mutation's onError: a changed card is
   * read again and what changed said).
   */
  onConfirm: (reason: string | undefined, card: SignedOver) => void;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes as the dialog closes; by default back to the control that opened it. */
  onCloseAutoFocus?: ((event: Event) => void) | undefined;
}) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const approve = action === 'approve';
  const card = useCardToSign(entityId);

  const confirm = () => {
    const trimmed = reason.trim();
    if (!approve && !trimmed) {
      setReasonError(reasonMissing);
      document.getElementById(`${id}-reason`)?.focus();
      return;
    }
    if (!card.shown) return;
    card.acknowledge();
    onConfirm(approve ? undefined : trimmed, {
      digest: card.shown.digest,
      refused: card.refused,
    });
  };

  return (
    <Dialog open onOpenChange={(next) => !sending && onOpenChange(next)}>
      <DialogContent
        onCloseAutoFocus={onCloseAutoFocus}
        title={approve ? `Approve ${what}?` : `Decline ${what}?`}
        description={description}
      >
        <div className="flex flex-col gap-4">
          {children}
          <div>
            <CardToSignView card={card} approve={approve} />
          </div>
          {!approve ? (
            <DeclineReasonField
              id={`${id}-reason`}
              value={reason}
              error={reasonError}
              onChange={(value) => {
                setReason(value);
                if (value.trim()) setReasonError(null);
              }}
            />
          ) : null}
          <SignedDecisionProblem card={card} error={error} approve={approve} />
        </div>
        <DialogActions>
          <DialogClose asChild>
            <Button variant="ghost" disabled={sending}>
              Cancel
            </Button>
          </DialogClose>
          <Button
            variant={approve ? 'primary' : 'destructive'}
            onClick={confirm}
            disabled={sending || !card.shown || (approve && !canConfirm)}
          >
            {sending
              ? approve
                ? 'Approving…'
                : 'Declining…'
              : approve
                ? labels.approve
                : labels.reject}
          </Button>
        </DialogActions>
      </DialogContent>
    </Dialog>
  );
}
