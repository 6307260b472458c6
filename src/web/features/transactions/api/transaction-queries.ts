import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiClient, type TransactionListParams } from '../../../lib/api-client.ts';

/**
 * Keys from general to specific, so `invalidateQueries({ queryKey:
 * transactionQueries.lists() })` after a create refreshes every list page
 * and filter combination at once.
 */
export const transactionQueries = {
  all: () => ['transactions'] as const,
  lists: () => [...transactionQueries.all(), 'list'] as const,
  list: (params: TransactionListParams) =>
    queryOptions({
      queryKey: [...transactionQueries.lists(), params] as const,
      queryFn: ({ signal }) => apiClient.listTransactions(params, { signal }),
      // The current page stays on screen while the next one loads.
      placeholderData: keepPreviousData,
    }),
  details: () => [...transactionQueries.all(), 'detail'] as const,
  detail: (transactionId: string) =>
    queryOptions({
      queryKey: [...transactionQueries.details(), transactionId] as const,
      queryFn: ({ signal }) => apiClient.getTransaction(transactionId, { signal }),
    }),
};
