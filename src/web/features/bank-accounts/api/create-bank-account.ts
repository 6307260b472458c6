import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BankAccountCreateRequest } from '#contract/bank-account.ts';
import { createBankAccount } from '#contract/endpoints/bank-account-writes.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { bankAccountQueries } from './bank-account-queries.ts';

/**
 * Proposes a bank account: the server creates it PENDING with the change
 * request that will decide it. The answer (numbers masked) seeds the new
 * account's page; every list is stale now.
 */
export function useCreateBankAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BankAccountCreateRequest) => apiClient.call(createBankAccount, { body }),
    onSuccess: async (account) => {
      if (account.id)
        queryClient.setQueryData(bankAccountQueries.detail(account.id).queryKey, account);
      await queryClient.invalidateQueries({ queryKey: bankAccountQueries.lists() });
    },
  });
}
