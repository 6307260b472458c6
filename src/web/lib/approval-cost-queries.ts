import { queryOptions, useQuery } from '@tanstack/react-query';
import { approvalCosts } from '#contract/endpoints/approvals.ts';
import { apiClient } from './api-client.ts';

/**
 * What approving the transactions named costs, as the server works it out
 * (GET /api/console/approval_costs/): read when an approve dialog opens.
 * Not keyed under the inbox: a decision re-reads the inbox, and a batch's
 * figures must not change under the approver while it is being approved.
 * A fee estimate holds for 30 seconds (docs/api-rules.md, "Fee tiers").
 */
const COSTS_STALE_MS = 30_000;

export const approvalCostsQuery = (entityIds: readonly string[]) =>
  queryOptions({
    queryKey: ['approval-costs', [...entityIds]] as const,
    queryFn: ({ signal }) =>
      apiClient.call(approvalCosts, { query: { entityIds: entityIds.join(',') } }, { signal }),
    staleTime: COSTS_STALE_MS,
    retry: false,
  });

export function useApprovalCosts(entityIds: readonly string[], enabled = true) {
  return useQuery({
    ...approvalCostsQuery(entityIds),
    enabled: enabled && entityIds.length > 0 && entityIds.every((id) => id !== ''),
  });
}
