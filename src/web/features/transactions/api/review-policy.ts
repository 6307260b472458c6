import { queryOptions, useQuery } from '@tanstack/react-query';
import { reviewTransactionPolicy } from '#contract/endpoints/policy-writes.ts';
import type { CreateTransactionRequest } from '#contract/transaction.ts';
import { apiClient } from '../../../lib/api-client.ts';

/**
 * What the approval policy makes of the transaction under review, before it
 * is sent (POST /api/console/policies/transactions/review/): the server
 * judges the very body the form would send, as it will judge the create.
 */
export const reviewPolicyQuery = (body: CreateTransactionRequest) =>
  queryOptions({
    queryKey: ['policy-review', body] as const,
    queryFn: ({ signal }) => apiClient.call(reviewTransactionPolicy, { body }, { signal }),
    // The answer may change with the policy or the vault's day: asked afresh at each review.
    staleTime: 0,
    retry: false,
  });

export function useReviewPolicy(body: CreateTransactionRequest) {
  return useQuery(reviewPolicyQuery(body));
}
