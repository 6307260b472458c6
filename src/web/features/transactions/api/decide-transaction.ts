import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { approvalMessage, decideApproval } from '#contract/endpoints/approvals.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { invalidateApprovalInbox } from '../../../lib/approval-inbox-count.ts';
import { transactionQueries } from './transaction-queries.ts';

/**
 * Approve or decline a PENDING transaction as the signed-in member: the
 * approval is looked up by the transaction's id, then decided. The server
 * refuses a member who created it (403 FOUR_EYES) or lacks the role.
 */

/** A decline must say why (the API refuses a reject without a reason). */
export const DeclineForm = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'Give a reason for declining')
    .max(500, 'The reason must be at most 500 characters'),
});
export type DeclineForm = z.infer<typeof DeclineForm>;

/** An approval of a ramp names the quote the approver saw (`quoteId`). */
export type Decision =
  { action: 'approve'; quoteId?: string } | { action: 'reject'; reason: string };

export function useDecideTransaction(transactionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (decision: Decision) => {
      const { approvalId } = await apiClient.call(approvalMessage, {
        query: { entityId: transactionId },
      });
      return apiClient.call(decideApproval, { params: { approvalId }, body: decision });
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: transactionQueries.detail(transactionId) }),
        queryClient.invalidateQueries({ queryKey: transactionQueries.lists() }),
        invalidateApprovalInbox(queryClient),
      ]),
  });
}
