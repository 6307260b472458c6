import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApprovalAction } from '#contract/approvals.ts';
import { approvalMessage, decideApproval } from '#contract/endpoints/approvals.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { invalidateApprovalInbox } from '../../../lib/approval-inbox-count.ts';
import { bankAccountQueries } from './bank-account-queries.ts';

export interface BankAccountDecision {
  bankAccountId: string;
  action: ApprovalAction;
  /** Required to reject (the server refuses a reject without one). */
  reason?: string | undefined;
}

/**
 * Approve or decline through the change-request flow, as an API client
 * would: the account's pending approval, then the decision on it. A staff
 * member signs nothing (the server acts for them) and is refused their own
 * proposal (403 FOUR_EYES) whatever this page shows.
 */
export function useDecideBankAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ bankAccountId, action, reason }: BankAccountDecision) => {
      const { approvalId } = await apiClient.call(approvalMessage, {
        query: { entityId: bankAccountId },
      });
      return apiClient.call(decideApproval, {
        params: { approvalId },
        body: { action, ...(reason ? { reason } : {}) },
      });
    },
    // Decided or refused (already decided elsewhere): the account's page and lists are stale.
    onSettled: async (_data, _error, { bankAccountId }) => {
      await Promise.all([
        queryClient.invalidateQueries({
          queryKey: [...bankAccountQueries.details(), bankAccountId],
        }),
        queryClient.invalidateQueries({ queryKey: bankAccountQueries.lists() }),
        invalidateApprovalInbox(queryClient),
      ]);
    },
  });
}
