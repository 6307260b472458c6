import { queryOptions, useQuery } from '@tanstack/react-query';
import { stakedAmount } from '#contract/endpoints/transactions.ts';
import type { ResourceType } from '#contract/enums.ts';
import { apiClient } from '../../../lib/api-client.ts';

/**
 * What a vault has staked on a chain (GET /api/console/vaults/{id}/staked/):
 * the unstake form's limit. Read briefly: a stake completing or an unstake
 * sent moves it.
 */
export const stakedQuery = (vaultId: string, blockChain: string, resourceType: ResourceType | '') =>
  queryOptions({
    queryKey: ['staked', vaultId, blockChain, resourceType] as const,
    queryFn: ({ signal }) =>
      apiClient.call(
        stakedAmount,
        {
          params: { vaultId },
          query: { blockChain, ...(resourceType ? { resourceType } : {}) },
        },
        { signal },
      ),
    staleTime: 5_000,
  });

export function useStaked(
  vaultId: string,
  blockChain: string,
  resourceType: ResourceType | '',
  enabled: boolean,
) {
  return useQuery({
    ...stakedQuery(vaultId, blockChain, resourceType),
    enabled: enabled && Boolean(vaultId && blockChain),
  });
}
