import type { QueryClient } from '@tanstack/react-query';
import { isApprovalEvent, isTransactionEvent, type LiveEvent } from '#contract/live-events.ts';
import { transactionQueries } from './transaction-queries.ts';

/**
 * What a batch of pushed changes (lib/live-updates.ts) makes stale among the
 * transactions' queries: each changed transaction's page (its facts,
 * timeline and history, keyed under its detail) and the lists, whose rows
 * show the status and whose filters may now match other rows. Only queries on
 * screen refetch; the rest are marked stale for their next use.
 */
export function invalidateTransactionChanges(queryClient: QueryClient, events: LiveEvent[]): void {
  const changed = new Set(
    events.flatMap((e) =>
      isTransactionEvent(e)
        ? [e.transactionId]
        : isApprovalEvent(e) && e.entityType === 'TRANSACTION'
          ? [e.entityId]
          : [],
    ),
  );
  for (const transactionId of changed)
    void queryClient.invalidateQueries({ queryKey: transactionQueries.detail(transactionId) });
  // A vote moves a transaction's approvals, not its status: the lists' rows stay as they are.
  if (events.some(isTransactionEvent))
    void queryClient.invalidateQueries({ queryKey: transactionQueries.lists() });
}

/** Everything the transactions' pages show, after changes may have been missed. */
export function invalidateAllTransactions(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: transactionQueries.all() });
}
