import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApprovalAction } from '#contract/approvals.ts';
import { invalidateContacts } from './invalidate-contacts.ts';
import { sendSignedDecision } from '../../../lib/signed-decision.ts';

export interface ContactDecision {
  contactId: string;
  action: ApprovalAction;
  /** The digest of the approval card shown: the decision is signed over it. */
  digest: string;
  /** Required to decline (the server refuses a rejection without one). */
  reason?: string | undefined;
}

/**
 * Approve or decline what waits on a contact (its proposal, or a change to
 * its asset list) through the change-request flow, as a bank account is:
 * signed over the approval card the member was shown. The member is refused
 * their own proposal (403 FOUR_EYES) whatever the page shows.
 */
export function useDecideContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ contactId, action, reason, digest }: ContactDecision) =>
      sendSignedDecision(contactId, digest, { action, ...(reason ? { reason } : {}) }),
    // Decided or refused (decided elsewhere meanwhile): every view of it is stale.
    onSettled: () => invalidateContacts(queryClient),
  });
}
