import type { QueryClient } from '@tanstack/react-query';
import type { LiveEvent } from '#contract/live-events.ts';
import { transactionQueries } from './transaction-queries.ts';

/**
 * What a batch of pushed changes (lib/live-updates.ts) makes stale among the
 * transactions' queries: each changed transaction's page (its facts,
 * timeline and history, keyed under its detail) and the lists, whose rows
 * show the status and whose filters may now match other rows. Only queries on
 * screen refetch; the rest are marked stale for their next use.
 */
export function invalidateTransactionChanges(queryClient: QueryClient, events: LiveEvent[]): void {
  for (const transactionId of new Set(events.map((e) => e.transactionId)))
    void queryClient.invalidateQueries({ queryKey: transactionQueries.detail(transactionId) });
  void queryClient.invalidateQueries({ queryKey: transactionQueries.lists() });
}

/** Everything the transactions' pages show, after changes may have been missed. */
export function invalidateAllTransactions(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: transactionQueries.all() });
}
