import { queryOptions } from '@tanstack/react-query';
import { listContacts } from '#contract/endpoints/contact-list.ts';
import {
  listAssets,
  listSubOrgs,
  listSupportedChains,
  listVaults,
  getVaultBalances,
} from '#contract/endpoints/reference.ts';
import { listStaff } from '#contract/endpoints/staff-list.ts';
import type { SubOrgListResponse } from '#contract/reference.ts';
import { apiClient } from './api-client.ts';

/**
 * Reference data several features read (vaults, assets, chains, staff):
 * shared here so that no feature imports another feature's internals.
 */
export const referenceQueries = {
  all: () => ['reference'] as const,
  vaults: () =>
    queryOptions({
      queryKey: [...referenceQueries.all(), 'vaults'] as const,
      // The sandbox and typical organizations have few vaults; the first page
      // at the maximum size is the whole list for a filter.
      queryFn: ({ signal }) => apiClient.call(listVaults, { query: { limit: 100 } }, { signal }),
      staleTime: 5 * 60_000,
    }),
  assets: () =>
    queryOptions({
      queryKey: [...referenceQueries.all(), 'assets'] as const,
      queryFn: ({ signal }) => apiClient.call(listAssets, {}, { signal }),
      staleTime: 30 * 60_000,
    }),
  /** Sub-organizations for the scope switcher; like vaults, one page at the maximum size. */
  subOrgs: () =>
    queryOptions({
      queryKey: [...referenceQueries.all(), 'sub-orgs'] as const,
      queryFn: ({ signal }) => apiClient.call(listSubOrgs, { query: { limit: 100 } }, { signal }),
      staleTime: 5 * 60_000,
    }),
  /**
   * Staff members (admins only): the staff page's list and the audit log's
   * actor filter. Teams are short: one page at the maximum size is all of it.
   */
  staffMembers: () =>
    queryOptions({
      queryKey: [...referenceQueries.all(), 'staff-members'] as const,
      queryFn: ({ signal }) => apiClient.call(listStaff, { query: { limit: 100 } }, { signal }),
    }),
  /** Contacts for the create forms' destination picker; like vaults, one page at the maximum size. */
  contacts: () =>
    queryOptions({
      queryKey: [...referenceQueries.all(), 'contacts'] as const,
      queryFn: ({ signal }) => apiClient.call(listContacts, { query: { limit: 100 } }, { signal }),
      staleTime: 60_000,
    }),
  /** What a vault holds, `{ASSET: {CHAIN: "decimal"}}`: moves with every transaction, so kept briefly. */
  vaultBalances: (vaultId: string) =>
    queryOptions({
      queryKey: [...referenceQueries.all(), 'vault-balances', vaultId] as const,
      queryFn: ({ signal }) =>
        apiClient.call(getVaultBalances, { params: { vaultId } }, { signal }),
      staleTime: 10_000,
    }),
  supportedChains: () =>
    queryOptions({
      queryKey: [...referenceQueries.all(), 'supported-chains'] as const,
      queryFn: ({ signal }) => apiClient.call(listSupportedChains, {}, { signal }),
      staleTime: 30 * 60_000,
    }),
};

/**
 * `referenceQueries.subOrgs()`'s answer as a picker's options: each
 * sub-organization with an id, labelled by its name (its id when unnamed).
 */
export function subOrgOptions(
  data: SubOrgListResponse | undefined,
): Array<{ value: string; label: string }> {
  return (data?.results ?? [])
    .filter((s): s is typeof s & { id: string } => Boolean(s.id))
    .map((s) => ({ value: s.id, label: s.name || s.id }));
}
