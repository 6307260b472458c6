import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiClient, type BankAccountListParams } from '../../../lib/api-client.ts';

export const bankAccountQueries = {
  all: () => ['bank-accounts'] as const,
  lists: () => [...bankAccountQueries.all(), 'list'] as const,
  list: (params: BankAccountListParams) =>
    queryOptions({
      queryKey: [...bankAccountQueries.lists(), params] as const,
      queryFn: ({ signal }) => apiClient.listBankAccounts(params, { signal }),
      placeholderData: keepPreviousData,
    }),
  details: () => [...bankAccountQueries.all(), 'detail'] as const,
  detail: (bankAccountId: string) =>
    queryOptions({
      queryKey: [...bankAccountQueries.details(), bankAccountId] as const,
      queryFn: ({ signal }) => apiClient.getBankAccount(bankAccountId, { signal }),
    }),
  /** Who proposed and decided the account: under its detail key, so one invalidation covers both. */
  history: (bankAccountId: string) =>
    queryOptions({
      queryKey: [...bankAccountQueries.details(), bankAccountId, 'history'] as const,
      queryFn: ({ signal }) => apiClient.getBankAccountHistory(bankAccountId, { signal }),
    }),
};
