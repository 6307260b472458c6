import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApprovalAction } from '#contract/approvals.ts';
import { invalidateApprovalInbox } from '../../../lib/approval-inbox-count.ts';
import { bankAccountQueries } from './bank-account-queries.ts';
import { sendSignedDecision } from '../../../lib/signed-decision.ts';

export interface BankAccountDecision {
  bankAccountId: string;
  action: ApprovalAction;
  /** The digest of the approval card shown: the decision is signed over it. */
  digest: string;
  /** Required to reject (the server refuses a reject without one). */
  reason?: string | undefined;
}

/**
 * Approve or decline through the change-request flow: the account's
 * pending approval, then the decision on it, signed over the approval card
 * the member was shown (lib/signed-decision.ts). The member is refused their
 * own proposal (403 FOUR_EYES) whatever this page shows.
 */
export function useDecideBankAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ bankAccountId, action, reason, digest }: BankAccountDecision) =>
      sendSignedDecision(bankAccountId, digest, { action, ...(reason ? { reason } : {}) }),
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
