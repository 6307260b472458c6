import { useMutation } from '@tanstack/react-query';
import type { BankAccountMatchRequest } from '#contract/bank-account-matches.ts';
import { findBankAccountMatches } from '#contract/endpoints/bank-accounts.ts';
import { apiClient } from '../../../lib/api-client.ts';

/**
 * Asks, just before a proposal is sent, whether the same account is already
 * pending or approved in the member's scope. A mutation (it is sent as POST,
 * the full numbers in its body) with nothing kept after it settles.
 */
export function useFindBankAccountMatches() {
  return useMutation({
    mutationFn: (body: BankAccountMatchRequest) => apiClient.call(findBankAccountMatches, { body }),
    gcTime: 0,
  });
}
