import { queryOptions } from '@tanstack/react-query';
import {
  bankAccountHistory,
  getBankAccount,
  listBankAccounts,
} from '#contract/endpoints/bank-accounts.ts';
import { apiClient, type BankAccountListParams } from '../../../lib/api-client.ts';
import { listQueries } from '../../../lib/list-queries.ts';

export const bankAccountQueries = {
  ...listQueries('bank-accounts', (params: BankAccountListParams, signal) =>
    apiClient.call(listBankAccounts, { query: params }, { signal }),
  ),
  details: () => [...bankAccountQueries.all(), 'detail'] as const,
  detail: (bankAccountId: string) =>
    queryOptions({
      queryKey: [...bankAccountQueries.details(), bankAccountId] as const,
      queryFn: ({ signal }) =>
        apiClient.call(getBankAccount, { params: { bankAccountId } }, { signal }),
    }),
  /** Who proposed and decided the account: under its detail key, so one invalidation covers both. */
  history: (bankAccountId: string) =>
    queryOptions({
      queryKey: [...bankAccountQueries.details(), bankAccountId, 'history'] as const,
      queryFn: ({ signal }) =>
        apiClient.call(bankAccountHistory, { params: { bankAccountId } }, { signal }),
    }),
};
