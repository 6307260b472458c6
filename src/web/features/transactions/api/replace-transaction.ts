import { useMutation, useQueryClient } from '@tanstack/react-query';
import { chainInfo, CHAINS } from '#contract/chains.ts';
import { isTerminalStatus } from '#contract/enums.ts';
import { isReplaceableCategory, UNREPLACEABLE_REASON } from '#contract/replacement.ts';
import { EstimateFeeRequest, type Transaction } from '#contract/transaction.ts';
import { estimateFee, replaceTransaction } from '#contract/endpoints/transaction-writes.ts';
import { getTransaction } from '#contract/endpoints/transactions.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { humanize } from '../../../lib/labels.ts';
import { transactionQueries } from './transaction-queries.ts';

/**
 * Replace a SUBMITTED transaction with one paying at least 10% more
 * (docs/api-rules.md, "Replacement"). The status is read afresh right before sending:
 * the page's copy may be seconds old and the transaction may have landed.
 */

/** Why `tx` has no replacement ever (a ramp, or someone else's), or null when it may have one. */
export function neverReplaceable(tx: Transaction): string | null {
  if (!isReplaceableCategory(tx.category))
    return `${humanize(tx.category)} transactions cannot be replaced: ${UNREPLACEABLE_REASON}.`;
  if (tx.transactionType === 'INCOMING')
    return 'it is incoming: only its sender, who signed it, can replace it.';
  return null;
}

/** Why `tx` cannot be replaced now, or null when it can. The server checks the same. */
export function replaceBlocker(tx: Transaction): string | null {
  const never = neverReplaceable(tx);
  if (never) return never;
  const chain = chainInfo(tx.blockChain);
  if (!chain?.supportsReplacement) {
    const able = CHAINS.filter((c) => c.supportsReplacement)
      .map((c) => c.label)
      .join(', ');
    return `${chain?.label ?? tx.blockChain ?? 'This chain'} does not support replacing a transaction (only ${able} do).`;
  }
  if (tx.status !== 'SUBMITTED') {
    return `Only a submitted transaction can be replaced; this one is ${humanize(tx.status).toLowerCase()}.`;
  }
  const inFlight = tx.replacements?.find((r) => !isTerminalStatus(r.status));
  if (inFlight) {
    return `A replacement is already in flight (${inFlight.id}, ${humanize(inFlight.status).toLowerCase()}).`;
  }
  return null;
}

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
