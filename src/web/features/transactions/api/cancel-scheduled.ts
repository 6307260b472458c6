import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Transaction } from '#contract/transaction.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { transactionQueries } from './transaction-queries.ts';

/**
 * Whether a scheduled transfer may still be cancelled at `now`: scheduled,
 * not yet run (waiting for approval or approved), its time still ahead. The
 * server decides the same under the transaction's lock.
 */
export function cancellableAt(tx: Transaction, now: number): boolean {
  if (!tx.executeAt || (tx.status !== 'PENDING' && tx.status !== 'APPROVED')) return false;
  const at = Date.parse(tx.executeAt);
  return !Number.isNaN(at) && now < at;
}

export function useCancelScheduled(transactionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    // The write endpoints' contract (classic zod, every create body) loads with the first cancel,
    // not with every transaction's page.
    mutationFn: async () => {
      const { cancelScheduledTransaction } =
        await import('#contract/endpoints/transaction-writes.ts');
      return apiClient.call(cancelScheduledTransaction, { params: { transactionId } });
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: transactionQueries.detail(transactionId) }),
        queryClient.invalidateQueries({ queryKey: transactionQueries.lists() }),
      ]),
  });
}
