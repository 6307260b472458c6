import { queryOptions, useQuery } from '@tanstack/react-query';
import { approvalProgress } from '#contract/endpoints/policies.ts';
import { apiClient } from './api-client.ts';
import { APPROVAL_INBOX_KEY } from './approval-inbox-count.ts';

/**
 * The approvals collected on an item under its frozen rule, and who may still
 * add one (GET /api/console/approval_progress/). Keyed under the inbox, so
 * every decision (which invalidates the inbox) re-reads it: an approval a
 * policy holds leaves the item PENDING, and only this shows it counted.
 */
export const approvalProgressQuery = (entityId: string) =>
  queryOptions({
    queryKey: [...APPROVAL_INBOX_KEY, 'progress', entityId] as const,
    queryFn: async ({ signal }) =>
      (await apiClient.call(approvalProgress, { query: { entityIds: entityId } }, { signal }))
        .results[0] ?? null,
  });

/** The item's progress; null when no rule was frozen on it (made before approval policies). */
export function useApprovalProgress(entityId: string, enabled = true) {
  return useQuery({ ...approvalProgressQuery(entityId), enabled: enabled && entityId !== '' });
}
