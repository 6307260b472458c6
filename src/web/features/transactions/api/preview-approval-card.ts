import { queryOptions, useQuery } from '@tanstack/react-query';
import { previewApprovalCard } from '#contract/endpoints/approval-card-preview.ts';
import type { CreateTransactionRequest } from '#contract/transaction.ts';
import { apiClient } from '../../../lib/api-client.ts';

/**
 * The approval card of the transaction under review, before it is sent (POST
 * /api/console/approval_cards/preview/): the server computes it from the very
 * body the form would send, as it will for the created item.
 */
export const previewApprovalCardQuery = (body: CreateTransactionRequest) =>
  queryOptions({
    queryKey: ['approval-card-preview', body] as const,
    queryFn: ({ signal }) => apiClient.call(previewApprovalCard, { body }, { signal }),
    // Prices, balances and the rule may change: asked afresh at each review.
    staleTime: 0,
    retry: false,
  });

export function usePreviewApprovalCard(body: CreateTransactionRequest) {
  return useQuery(previewApprovalCardQuery(body));
}
