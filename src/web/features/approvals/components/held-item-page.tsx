import { Link } from '@tanstack/react-router';
import { ApprovalCardView } from '../../../components/approval-card.tsx';
import { DetailFailed, DetailHeading, DetailLoading } from '../../../components/detail-page.tsx';
import { Panel } from '../../../components/panel.tsx';
import { onDemand } from '../../../components/on-demand.tsx';
import { ProposalDecision } from '../../../components/proposal-decision.tsx';
import { SignaturesPanel } from '../../../components/signatures-panel.tsx';
import { useApprovalCard } from '../../../lib/approval-card-queries.ts';
import { describeHeldCard } from '../../../lib/approval-inbox-items.ts';
import { humanize } from '../../../lib/labels.ts';

// With the dialog, passkey and card-signing code: loaded when an approver opens it.
const decideHeldDialog = onDemand(() => import('./decide-held-dialog.tsx'));

export interface HeldItemPermissions {
  /** The member's id: their approval, if the quorum holds one, is their decision. */
  memberId: string | undefined;
  canApprove: boolean;
}

function BackToInbox() {
  return (
    <p>
      <Link
        to="/approvals"
        className="text-sm font-medium text-blue-800 underline hover:text-blue-900"
      >
        Back to the approvals inbox
      </Link>
    </p>
  );
}

/**
 * `/approvals/held/$entityId`: the one page every kind the console holds
 * itself shares (a kind declares its card; the approval core does the rest).
 * Its approval card exactly as the server computes it, with the quorum so
 * far and any vote that stopped counting; Approve and Decline, each signed
 * over the card shown; and every decision's signature, checked again by the
 * server. Another member's decision arrives as a live update (the card,
 * quorum and signatures are keyed under the inbox, which every approval
 * event refreshes).
 */
export function HeldItemPage({
  entityId,
  permissions,
}: {
  entityId: string;
  permissions: HeldItemPermissions;
}) {
  const card = useApprovalCard(entityId);
  if (card.isPending) return <DetailLoading label="Loading the item" />;
  if (card.isError)
    return <DetailFailed kind="Item waiting for a decision" back={<BackToInbox />} query={card} />;

  const answer = card.data;
  const { intent, status } = answer.card;
  const what = describeHeldCard(answer.card);
  const waiting = status.state === 'PENDING';
  return (
    <section id="held-item-page" aria-labelledby="held-title" className="flex flex-col gap-6">
      <title>{`${what} · Approvals · Custody Console`}</title>
      <BackToInbox />
      <DetailHeading id="held-title" title={what} status={status.state ?? undefined}>
        <span className="text-sm text-slate-700">{humanize(intent.kind)}</span>
      </DetailHeading>
      <ProposalDecision
        current={{ kind: 'HELD', id: entityId, createdAt: status.createdAt }}
        waiting={waiting}
        canApprove={permissions.canApprove}
        // The card does not name the proposer: the server refuses their decision (FOUR_EYES),
        // and the dialog says so.
        own={false}
        memberId={permissions.memberId}
        prompt="This item is waiting for a decision. Check the card below: your decision is signed over exactly it."
        dialogs={decideHeldDialog}
        dialog={(m, controls) => (
          <m.DecideHeldDialog entityId={entityId} answer={answer} what={what} {...controls} />
        )}
      />
      <Panel title="Approval card">
        <ApprovalCardView answer={answer} title="What is decided" />
      </Panel>
      <SignaturesPanel
        entityId={entityId}
        // A decision moves the quorum or the state; a changed card may void a vote.
        revision={`${status.state}:${status.quorum?.approvedBy.length ?? 0}:${answer.digest}`}
      />
    </section>
  );
}
