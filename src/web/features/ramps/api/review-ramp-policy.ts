import { queryOptions, useQuery } from '@tanstack/react-query';
import { reviewRampPolicy } from '#contract/endpoints/policy-writes.ts';
import type { IntentCreateRequest } from '#contract/ramps.ts';
import { apiClient } from '../../../lib/api-client.ts';

/**
 * What the approval policy makes of the conversion under review, before it
 * is sent (POST /api/console/policies/ramps/review/): the server judges the
 * transaction the chosen quote would make, as it will judge the execute.
 */
export const reviewRampPolicyQuery = (body: IntentCreateRequest) =>
  queryOptions({
    queryKey: ['ramp-policy-review', body] as const,
    queryFn: ({ signal }) => apiClient.call(reviewRampPolicy, { body }, { signal }),
    // The answer may change with the policy: asked afresh at each review.
    staleTime: 0,
    retry: false,
  });

export function useReviewRampPolicy(body: IntentCreateRequest) {
  return useQuery(reviewRampPolicyQuery(body));
}
