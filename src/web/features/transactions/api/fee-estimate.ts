import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { EstimateFeeRequest } from '#contract/transaction.ts';
import { estimateFee } from '#contract/endpoints/transaction-writes.ts';
import { apiClient } from '../../../lib/api-client.ts';

/**
 * Fee estimates for the create forms. The form's values change with every
 * keystroke; the estimate follows them after a pause, and a request for
 * values the member has since changed is cancelled (TanStack Query aborts
 * the signal of a query nobody observes any more).
 */

/** Estimates are stable for 30 seconds (docs/api-rules.md, "Fee tiers"); older ones show as stale. */
export const ESTIMATE_STALE_MS = 30_000;
export const ESTIMATE_DEBOUNCE_MS = 400;

export const feeEstimateQueries = {
  all: () => ['fee-estimate'] as const,
  estimate: (body: EstimateFeeRequest) =>
    queryOptions({
      queryKey: [...feeEstimateQueries.all(), body] as const,
      queryFn: ({ signal }) => apiClient.call(estimateFee, { body }, { signal }),
      staleTime: ESTIMATE_STALE_MS,
      // A failed estimate is shown at once; the member can refresh it.
      retry: false,
    }),
};

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/**
 * The estimate for `candidate` (the create body the form would send), once
 * it is a valid estimate body; `null` while the form is incomplete.
 */
export function useFeeEstimate(candidate: unknown) {
  const parsed = EstimateFeeRequest.safeParse(candidate);
  // A stable string keeps the debounce from restarting on equal values.
  const key = parsed.success ? JSON.stringify(parsed.data) : null;
  const debounced = useDebounced(key, ESTIMATE_DEBOUNCE_MS);
  const body = debounced ? (JSON.parse(debounced) as EstimateFeeRequest) : null;
  const query = useQuery({
    ...feeEstimateQueries.estimate(body ?? ({} as EstimateFeeRequest)),
    enabled: body !== null,
  });
  return { query, ready: body !== null, pending: key !== debounced };
}

/** The estimate body of a create body: the fields that price it, nothing that only records intent. */
export function toEstimateBody(request: Record<string, unknown>): Record<string, unknown> {
  const {
    externalId: _e,
    memo: _m,
    gasParams: _g,
    feePayer: _f,
    creationOptions: _c,
    ...priced
  } = request;
  return priced;
}
