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
  /** The key only: the detail query, which polls, lives in get-transaction.ts. */
  detail: (transactionId: string) => [...transactionQueries.details(), transactionId] as const,
};
