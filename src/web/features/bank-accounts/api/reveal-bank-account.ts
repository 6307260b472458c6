import { useMutation } from '@tanstack/react-query';
import { revealBankAccount } from '#contract/endpoints/bank-accounts.ts';
import { apiClient } from '../../../lib/api-client.ts';

/**
 * Full account and routing numbers, fetched on demand (each call is audited
 * server-side) and never cached: a mutation, not a query, with no cache time,
 * so the numbers leave memory once hidden.
 */
export function useRevealBankAccount() {
  return useMutation({
    mutationFn: (bankAccountId: string) =>
      apiClient.call(revealBankAccount, { params: { bankAccountId } }),
    gcTime: 0,
  });
}
