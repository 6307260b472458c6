import { useMutation, useQueryClient } from '@tanstack/react-query';
import { EstimateFeeRequest, type Transaction } from '#contract/transaction.ts';
import { estimateFee, replaceTransaction } from '#contract/endpoints/transaction-writes.ts';
import { getTransaction } from '#contract/endpoints/transactions.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { replaceBlocker } from '../replaceable.ts';
import { transactionQueries } from './transaction-queries.ts';

// The checks alone live apart: the list's slow flag reads them on every first load, and this
// module brings the write endpoints' contract (classic zod, the ramps' and trades' bodies).
export { replaceBlocker } from '../replaceable.ts';

/**
 * Replace a SUBMITTED transaction with one paying at least 10% more
 * (docs/api-rules.md, "Replacement"). The status is read afresh right before sending:
 * the page's copy may be seconds old and the transaction may have landed.
 */

export class ReplaceRefused extends Error {
  override readonly name = 'ReplaceRefused';
}

export function useReplaceTransaction(transactionId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const fresh = await apiClient.call(getTransaction, { params: { transactionId } });
      const blocker = replaceBlocker(fresh);
      if (blocker) throw new ReplaceRefused(`Not sent: ${blocker}`);
      return apiClient.call(replaceTransaction, { body: { transactionId } });
    },
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: transactionQueries.detail(transactionId) }),
        queryClient.invalidateQueries({ queryKey: transactionQueries.lists() }),
      ]),
  });
}

/** The fee estimate a replacement preview compares with (transfers only: the estimate endpoint's scope). */
export async function estimateFeeFor(tx: Transaction, signal?: AbortSignal) {
  const request = EstimateFeeRequest.safeParse({
    category: tx.category,
    source: { type: tx.source?.type, id: tx.source?.id },
    destination: { type: tx.destination?.type, id: tx.destination?.id },
    amount: tx.amount,
    asset: tx.asset,
    blockChain: tx.blockChain,
  });
  return request.success ? apiClient.call(estimateFee, { body: request.data }, { signal }) : null;
}
