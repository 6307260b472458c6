import { queryOptions, useQuery } from '@tanstack/react-query';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { apiClient } from './api-client.ts';
import { APPROVAL_INBOX_KEY } from './approval-inbox-count.ts';

/**
 * An item's approval card (GET /api/console/approval_cards/{id}/), as the
 * server computes it. Keyed under the inbox's key, so a decision (which
 * re-reads the inbox) re-reads the card's quorum too.
 */
export const approvalCardQuery = (entityId: string) =>
  queryOptions({
    queryKey: [...APPROVAL_INBOX_KEY, 'card', entityId] as const,
    queryFn: ({ signal }) => apiClient.call(approvalCard, { params: { entityId } }, { signal }),
    retry: false,
  });

export function useApprovalCard(entityId: string) {
  return useQuery({ ...approvalCardQuery(entityId), enabled: entityId !== '' });
}
