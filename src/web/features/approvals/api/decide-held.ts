import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApprovalAction } from '#contract/approvals.ts';
import { invalidateApprovalInbox } from '../../../lib/approval-inbox-count.ts';
import { sendSignedHeldDecision } from '../../../lib/signed-decision.ts';

export interface HeldDecision {
  entityId: string;
  action: ApprovalAction;
  /** The digest of the approval card shown: the decision is signed over it. */
  digest: string;
  /** Required to decline (the dialog asks for it; the proposer reads it). */
  reason?: string | undefined;
}

/**
 * Approve or decline an item of a kind the console holds itself, at the
 * approval core's own route, signed over the card the member was shown
 * (lib/signed-decision.ts). Whatever the page offers, the server refuses the
 * proposer (403 FOUR_EYES), a second decision, and a card that changed.
 */
export function useDecideHeld() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ entityId, action, reason, digest }: HeldDecision) =>
      sendSignedHeldDecision(entityId, digest, { action, ...(reason ? { reason } : {}) }),
    // Decided or refused (decided elsewhere meanwhile): its card, quorum, signatures and the
    // inbox are read again (all keyed under the inbox).
    onSettled: () => invalidateApprovalInbox(queryClient),
  });
}
