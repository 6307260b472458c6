import type { ApprovalCardResponse } from '#contract/approval-card.ts';
import type { ApprovalAction, ApprovalActionResponse } from '#contract/approvals.ts';
import { formatAmount, formatUsd } from '#contract/decimal-format.ts';
import { DecideDialog } from '../../../components/decide-dialog.tsx';
import { Fact } from '../../../components/fact.tsx';
import { humanize } from '../../../lib/labels.ts';
import { useSendOnce } from '../../../lib/use-send-once.ts';
import { useDecideHeld } from '../api/decide-held.ts';

/**
 * The confirmation of a decision on a held item: what it is in one line, the
 * card signed over (the dialog reads it again and says what changed, if it
 * did), and a decline's reason. Mount it to open it.
 */
export function DecideHeldDialog({
  entityId,
  answer,
  what,
  action,
  onOpenChange,
  onDecided,
  onCloseAutoFocus,
}: {
  entityId: string;
  answer: ApprovalCardResponse;
  what: string;
  action: ApprovalAction;
  onOpenChange: (open: boolean) => void;
  onDecided: (answer: ApprovalActionResponse) => void;
  onCloseAutoFocus?: ((event: Event) => void) | undefined;
}) {
  const decide = useDecideHeld();
  const decideOnce = useSendOnce(decide);
  const approve = action === 'approve';
  const { intent, status } = answer.card;
  return (
    <DecideDialog
      entityId={entityId}
      action={action}
      what={what}
      description={
        approve
          ? 'Check the card: once its rule is met, what it describes is done.'
          : 'Nothing it describes is done. The proposer reads your reason.'
      }
      reasonMissing="Give a reason to decline: the proposer reads it."
      labels={{ approve: 'Approve', reject: 'Decline' }}
      sending={decide.isPending}
      error={decide.isError ? decide.error : null}
      onConfirm={(reason, card) =>
        decideOnce(
          { entityId, action, reason, digest: card.digest },
          { onSuccess: onDecided, onError: card.refused },
        )
      }
      onOpenChange={onOpenChange}
      onCloseAutoFocus={onCloseAutoFocus}
    >
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <Fact term="What">{humanize(intent.category) || humanize(intent.kind)}</Fact>
        {intent.amount !== null ? (
          <Fact term="Amount">
            {`${formatAmount(intent.amount)} ${intent.asset ?? ''}`.trimEnd()}
            {status.amountUsd !== null ? ` (≈ ${formatUsd(status.amountUsd)} USD)` : ''}
          </Fact>
        ) : null}
        {intent.destination ? (
          <Fact term="Who">{intent.destination.name ?? intent.destination.address ?? '—'}</Fact>
        ) : null}
      </dl>
    </DecideDialog>
  );
}
