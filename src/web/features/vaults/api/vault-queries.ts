import { queryOptions } from '@tanstack/react-query';
import { vaultHoldings } from '#contract/endpoints/overview.ts';
import { getVault } from '#contract/endpoints/reference.ts';
import { getDetailedBalances } from '#contract/endpoints/vaults.ts';
import { apiClient } from '../../../lib/api-client.ts';

/**
 * The Vaults pages' reads: the list valued (GET /api/console/vaults/), a
 * vault with its wallets (the custody API's getVault) and what it holds,
 * valued (detailed_balances). Balances move with every completed
 * transaction: re-read while the page is visible, never in a hidden tab.
 */
const BALANCES_REFRESH_MS = 15_000;

export const vaultQueries = {
  all: () => ['vaults'] as const,
  list: (subOrgId: string | undefined) =>
    queryOptions({
      queryKey: [...vaultQueries.all(), 'list', subOrgId ?? null] as const,
      queryFn: ({ signal }) => apiClient.call(vaultHoldings, { query: { subOrgId } }, { signal }),
      refetchInterval: BALANCES_REFRESH_MS,
      refetchIntervalInBackground: false,
    }),
  detail: (vaultId: string) =>
    queryOptions({
      queryKey: [...vaultQueries.all(), 'detail', vaultId] as const,
      queryFn: ({ signal }) => apiClient.call(getVault, { params: { vaultId } }, { signal }),
    }),
  balances: (vaultId: string) =>
    queryOptions({
      queryKey: [...vaultQueries.all(), 'detail', vaultId, 'balances'] as const,
      queryFn: ({ signal }) =>
        apiClient.call(getDetailedBalances, { params: { vaultId } }, { signal }),
      refetchInterval: BALANCES_REFRESH_MS,
      refetchIntervalInBackground: false,
    }),
};
