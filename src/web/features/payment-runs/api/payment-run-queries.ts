import { queryOptions } from '@tanstack/react-query';
import {
  getPaymentRun,
  listPaymentRuns,
  paymentRunReconciliation,
} from '#contract/endpoints/payment-runs.ts';
import type { PaymentRun } from '#contract/payment-runs.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { isLive } from '../../../lib/live-updates.ts';

/**
 * While the event stream is down, a run that is being paid is read again at
 * the transaction page's slowest pace; with the stream up it is refetched on
 * its `payment_run.progress` events only (api/live-changes.ts).
 */
const RUN_POLL_MS = 10_000;

/** A run whose rows may still move without anyone here doing anything. */
export function isMoving(run: Pick<PaymentRun, 'status' | 'rows'> | undefined): boolean {
  if (!run) return false;
  return (
    run.status === 'APPROVED' ||
    run.status === 'EXECUTING' ||
    run.status === 'PENDING_APPROVAL' ||
    run.rows.some((r) => r.status === 'SUBMITTED')
  );
}

export const paymentRunQueries = {
  all: () => ['payment-runs'] as const,
  list: () =>
    queryOptions({
      queryKey: [...paymentRunQueries.all(), 'list'] as const,
      queryFn: ({ signal }) => apiClient.call(listPaymentRuns, {}, { signal }),
    }),
  detail: (runId: string) =>
    queryOptions({
      queryKey: [...paymentRunQueries.all(), 'detail', runId] as const,
      queryFn: ({ signal }) => apiClient.call(getPaymentRun, { params: { runId } }, { signal }),
      refetchInterval: (query) => (!isLive() && isMoving(query.state.data) ? RUN_POLL_MS : false),
      refetchIntervalInBackground: false,
    }),
  reconciliation: (runId: string) =>
    queryOptions({
      queryKey: [...paymentRunQueries.all(), 'detail', runId, 'reconciliation'] as const,
      queryFn: ({ signal }) =>
        apiClient.call(paymentRunReconciliation, { params: { runId } }, { signal }),
    }),
};
