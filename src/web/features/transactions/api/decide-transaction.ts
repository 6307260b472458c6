import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateApprovalInbox } from '../../../lib/approval-inbox-count.ts';
import { transactionQueries } from './transaction-queries.ts';

/**
 * Approve or decline a PENDING transaction as the signed-in member, signed
 * over the approval card they were shown (lib/signed-decision.ts). The server
 * refuses a member who created it (403 FOUR_EYES) or lacks the role, and a
 * card that changed since (409 CARD_CHANGED).
 */

/**
 * An approval of a ramp names the quote the approver saw (`quoteId`); every
 * decision names the digest of the card shown.
 */
export type Decision = { digest: string } & (
  { action: 'approve'; quoteId?: string } | { action: 'reject'; reason: string }
);

export function useDecideTransaction(transactionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // Loaded with the first decision, not the page: it brings the passkey library.
    mutationFn: async ({ digest, ...decision }: Decision) => {
      const { sendSignedDecision } = await import('../../../lib/signed-decision.ts');
      return sendSignedDecision(transactionId, digest, decision);
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: transactionQueries.detail(transactionId) }),
        queryClient.invalidateQueries({ queryKey: transactionQueries.lists() }),
        invalidateApprovalInbox(queryClient),
      ]),
  });
}
