import { useMutation, useQueryClient } from '@tanstack/react-query';
import { approvalMessage, decideApproval } from '#contract/endpoints/approvals.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { describeError } from '../../../lib/api-errors.ts';
import { invalidateApprovalInbox } from '../../../lib/approval-inbox-count.ts';

/**
 * Approving several transactions in one go, from the inbox: each is sent in
 * turn as its own decision, exactly the requests its page sends (its
 * approval, looked up by the transaction's id, then the decision on it), so
 * the server checks four-eyes, role and scope and writes an audit row for
 * each one as it would for a single approval. One refused does not stop the
 * others; what happened to each is reported as it happens.
 */

export type BulkOutcome =
  | { state: 'waiting' }
  | { state: 'sending' }
  | { state: 'approved' }
  | { state: 'refused'; reason: string };

export interface BulkApproval {
  transactionIds: readonly string[];
  onOutcome: (transactionId: string, outcome: BulkOutcome) => void;
}

export function useApproveTransactions(onSettled?: () => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ transactionIds, onOutcome }: BulkApproval) => {
      let approved = 0;
      // One at a time, in the order shown: each decision is the server's to accept or refuse.
      for (const id of transactionIds) {
        onOutcome(id, { state: 'sending' });
        try {
          const { approvalId } = await apiClient.call(approvalMessage, { query: { entityId: id } });
          await apiClient.call(decideApproval, {
            params: { approvalId },
            body: { action: 'approve' },
          });
          approved += 1;
          onOutcome(id, { state: 'approved' });
        } catch (error) {
          onOutcome(id, { state: 'refused', reason: describeError(error) });
        }
      }
      return { approved, refused: transactionIds.length - approved };
    },
    // Decided or refused (decided elsewhere meanwhile): the inbox, its count and the
    // transactions' own reads are stale.
    onSettled: () => Promise.all([invalidateApprovalInbox(queryClient), onSettled?.()]),
  });
}
