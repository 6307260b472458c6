import type { QueryClient } from '@tanstack/react-query';
import { isApprovalEvent, isPaymentRunEvent, type LiveEvent } from '#contract/live-events.ts';
import { paymentRunQueries } from './payment-run-queries.ts';

/**
 * What pushed changes (lib/live-updates.ts) make stale among the runs'
 * queries: a run's page when its progress moved or its approval did
 * (proposed, voted, decided), and the list, whose rows show status and
 * progress. Only queries on screen refetch.
 */
export function invalidatePaymentRunChanges(
  queryClient: QueryClient,
  events: readonly LiveEvent[],
): void {
  const runIds = new Set(
    events.flatMap((e) =>
      isPaymentRunEvent(e)
        ? [e.runId]
        : isApprovalEvent(e) && e.entityType === 'PAYMENT_RUN'
          ? [e.entityId]
          : [],
    ),
  );
  if (runIds.size === 0) return;
  for (const runId of runIds)
    void queryClient.invalidateQueries({ queryKey: paymentRunQueries.detail(runId).queryKey });
  void queryClient.invalidateQueries({ queryKey: paymentRunQueries.list().queryKey });
}

/** Everything the runs' pages show, after changes may have been missed. */
export function invalidateAllPaymentRuns(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: paymentRunQueries.all() });
}
