import { queryOptions } from '@tanstack/react-query';
import { listBankAccounts } from '#contract/endpoints/bank-accounts.ts';
import { listBankAccountRamps } from '#contract/endpoints/ramps.ts';
import { apiClient } from '../../../lib/api-client.ts';

/** Keys from general to specific: every ramp read lives under `ramps`. */
export const rampQueries = {
  all: () => ['ramps'] as const,
  /**
   * The approved bank accounts a ramp may pay, in the member's scope: one page
   * at the maximum size, like the other pickers' reference data. Masked, as
   * every list answers them to staff.
   */
  payoutAccounts: (subOrgId: string | undefined) =>
    queryOptions({
      queryKey: [...rampQueries.all(), 'payout-accounts', subOrgId ?? null] as const,
      queryFn: ({ signal }) =>
        apiClient.call(
          listBankAccounts,
          { query: { status: 'APPROVED', limit: 100, ...(subOrgId ? { subOrgId } : {}) } },
          { signal },
        ),
      staleTime: 60_000,
    }),
  /** The newest ramps paid to (or funded from) one bank account. */
  ofBankAccount: (bankAccountId: string) =>
    queryOptions({
      queryKey: [...rampQueries.all(), 'bank-account', bankAccountId] as const,
      queryFn: ({ signal }) =>
        apiClient.call(
          listBankAccountRamps,
          { params: { bankAccountId }, query: { limit: 20 } },
          { signal },
        ),
    }),
};
