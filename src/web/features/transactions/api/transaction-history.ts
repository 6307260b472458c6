import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ChangeRequestActor, ChangeRequestHistory } from '#contract/change-request.ts';
import type { Transaction } from '#contract/transaction.ts';
import { transactionHistory } from '#contract/endpoints/transactions.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { transactionQueries } from './transaction-queries.ts';

/**
 * Who created a transaction and who decided it, named by the console
 * (GET /api/console/transactions/{id}/history/): the custody API names a
 * creator only by id. Keyed under the transaction's detail, so a decision's
 * invalidation of the detail refreshes it too; re-read when the status moves.
 */
export const transactionHistoryQuery = (transactionId: string, status: string | undefined) =>
  queryOptions({
    queryKey: [...transactionQueries.detail(transactionId), 'history', status] as const,
    queryFn: ({ signal }) =>
      apiClient.call(transactionHistory, { params: { transactionId } }, { signal }),
    staleTime: 30_000,
  });

/**
 * The history asked for before the transaction's status is known (the page's
 * first load: the server's render waits on both reads, so side by side they
 * cost the slower one, not their sum): the query of the status the detail
 * then names, answered by this one read.
 */
export function startTransactionHistory(transactionId: string) {
  const read = () => apiClient.call(transactionHistory, { params: { transactionId } });
  const answer = read();
  // Refused with the detail (a transaction not found or not theirs): the page says so, not this.
  answer.catch(() => undefined);
  return (status: string | undefined) => ({
    ...transactionHistoryQuery(transactionId, status),
    queryFn: async () => {
      const early = await answer;
      // Read before a decision the detail then saw: it would stand under that status, short
      // of the decision, until the status next changed. Asked again instead.
      return missesDecision(early, status) ? read() : early;
    },
  });
}

/** A history with no decided record, for a transaction whose status says it was decided. */
export function missesDecision(history: ChangeRequestHistory, status: string | undefined): boolean {
  if (status === undefined || status === 'PENDING') return false;
  return !history.results.some((r) => r.status !== 'PENDING');
}

export function useTransactionHistory(tx: Transaction) {
  return useQuery({ ...transactionHistoryQuery(tx.id ?? '', tx.status), enabled: Boolean(tx.id) });
}

/** "Ada Approver", or for an API client "treasury bot (API client)", or the id when nothing names it. */
export function actorName(actor: ChangeRequestActor | null | undefined): string | undefined {
  if (!actor) return undefined;
  const name = actor.name ?? actor.id;
  return actor.type === 'API_USER' ? `${name} (API client)` : name;
}
