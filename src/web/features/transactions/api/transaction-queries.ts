import { listTransactions } from '#contract/endpoints/transaction-list.ts';
import { apiClient, type TransactionListParams } from '../../../lib/api-client.ts';
import { listQueries } from '../../../lib/list-queries.ts';

/** Keys from general to specific (see listQueries): the list, then each transaction. */
export const transactionQueries = {
  ...listQueries('transactions', (params: TransactionListParams, signal) =>
    apiClient.call(listTransactions, { query: params }, { signal }),
  ),
  details: () => [...transactionQueries.all(), 'detail'] as const,
  /** The key only: the detail query, which polls, lives in get-transaction.ts. */
  detail: (transactionId: string) => [...transactionQueries.details(), transactionId] as const,
};
