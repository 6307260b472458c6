import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { approvalSignatures } from '#contract/endpoints/approval-signatures.ts';
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

/**
 * Every decision recorded on an item, its signature checked again by the
 * server (GET /api/console/approval_signatures/{id}/). Under the inbox's key
 * too, so a decision re-reads it; `revision` (what the page knows changed on
 * the item: its status, a replacement) reads it again when the item moves,
 * since a vote can stop counting then.
 */
export function useApprovalSignatures(entityId: string, revision = '') {
  return useQuery({
    queryKey: [...APPROVAL_INBOX_KEY, 'signatures', entityId, revision] as const,
    queryFn: ({ signal }) =>
      apiClient.call(approvalSignatures, { params: { entityId } }, { signal }),
    enabled: entityId !== '',
    retry: false,
    placeholderData: keepPreviousData,
  });
}
