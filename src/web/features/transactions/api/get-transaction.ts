import { queryOptions, useQuery } from '@tanstack/react-query';
import { isTerminalStatus } from '#contract/enums.ts';
import type { Transaction } from '#contract/transaction.ts';
import { getTransaction } from '#contract/endpoints/transactions.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { isLive } from '../../../lib/live-updates.ts';
import { transactionQueries } from './transaction-queries.ts';

/**
 * One transaction, followed until it ends. The detail page polls with the
 * ETag of the copy it holds, so a poll that finds nothing new is a bodiless
 * 304. Polling starts at 2 s and backs off to 15 s while nothing changes,
 * pauses while the tab is hidden (TanStack Query skips interval refetches
 * when the document is not visible), refreshes when the tab comes back, and
 * stops once the status is terminal. A DRAFT is not followed either: nothing
 * in the custody API moves a draft on (it waits to be submitted where it was
 * drafted), so the page says so and offers Refresh instead of polling for ever.
 * While the tab's event stream is up (lib/live-updates.ts) it does not poll at
 * all: a change of this transaction refetches it.
 */

export interface TransactionSnapshot {
  transaction: Transaction;
  /** The ETag of `transaction`, sent back as If-None-Match on the next poll. */
  etag: string | null;
  /** Polls in a row that found nothing new: the interval backs off with it. */
  unchangedPolls: number;
}

export const POLLING = {
  firstMs: 2_000,
  maxMs: 15_000,
  /** 2 s, 3.2 s, 5.1 s, 8.2 s, 13.1 s, then 15 s. */
  backOff: 1.6,
} as const;

/** Whether a transaction in `status` may still move on its own, so the page keeps checking. */
export function isFollowed(status: string | undefined): boolean {
  return !isTerminalStatus(status) && status !== 'DRAFT';
}

/** How long until the next poll; false when there is nothing left to follow. */
export function pollDelay(snapshot: TransactionSnapshot | undefined): number | false {
  // No copy (the first load failed: 404, no access) or a finished transaction.
  if (!snapshot || !isFollowed(snapshot.transaction.status)) return false;
  return Math.min(
    POLLING.maxMs,
    Math.round(POLLING.firstMs * POLLING.backOff ** snapshot.unchangedPolls),
  );
}

export async function fetchTransactionSnapshot(
  transactionId: string,
  previous: TransactionSnapshot | undefined,
  signal?: AbortSignal,
): Promise<TransactionSnapshot> {
  const answer = await apiClient.callIfChanged(
    getTransaction,
    { params: { transactionId } },
    previous?.etag ?? null,
    { signal },
  );
  if (answer.notModified) {
    // Only sent with an ETag, which only a previous copy provides.
    if (!previous) throw new Error(`${transactionId}: 304 without a copy to keep`);
    return { ...previous, unchangedPolls: previous.unchangedPolls + 1 };
  }
  const unchanged = previous !== undefined && answer.etag !== null && answer.etag === previous.etag;
  return {
    transaction: answer.data,
    etag: answer.etag,
    unchangedPolls: unchanged ? previous.unchangedPolls + 1 : 0,
  };
}

export const transactionDetailQuery = (transactionId: string) =>
  queryOptions({
    queryKey: transactionQueries.detail(transactionId),
    queryFn: ({ signal, client, queryKey }) =>
      fetchTransactionSnapshot(
        transactionId,
        client.getQueryData<TransactionSnapshot>(queryKey),
        signal,
      ),
    refetchInterval: (query) => (isLive() ? false : pollDelay(query.state.data)),
    refetchIntervalInBackground: false,
    // Back in the tab: look at once rather than at the next tick (the stream, when up, told it all).
    refetchOnWindowFocus: (query) =>
      isLive() || pollDelay(query.state.data) === false ? false : 'always',
  });

export function useTransactionSnapshot(transactionId: string) {
  return useQuery(transactionDetailQuery(transactionId));
}
