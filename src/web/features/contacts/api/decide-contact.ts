import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApprovalAction } from '#contract/approvals.ts';
import { approvalMessage, decideApproval } from '#contract/endpoints/approvals.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { invalidateContacts } from './invalidate-contacts.ts';

export interface ContactDecision {
  contactId: string;
  action: ApprovalAction;
  /** Required to decline (the server refuses a rejection without one). */
  reason?: string | undefined;
}

/**
 * Approve or decline what waits on a contact (its proposal, or a change to
 * its asset list) through the change-request flow, as a bank account is. A
 * staff member signs nothing and is refused their own proposal (403
 * FOUR_EYES) whatever the page shows.
 */
export function useDecideContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ contactId, action, reason }: ContactDecision) => {
      const { approvalId } = await apiClient.call(approvalMessage, {
        query: { entityId: contactId },
      });
      return apiClient.call(decideApproval, {
        params: { approvalId },
        body: { action, ...(reason ? { reason } : {}) },
      });
    },
    // Decided or refused (decided elsewhere meanwhile): every view of it is stale.
    onSettled: () => invalidateContacts(queryClient),
  });
}
