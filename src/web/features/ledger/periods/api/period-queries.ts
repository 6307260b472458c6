import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  exportJournal,
  getJournalMapping,
  listLedgerPeriods,
  proposeLedgerClose,
  setJournalMapping,
} from '#contract/endpoints/ledger-periods.ts';
import { pathOf } from '#contract/endpoint.ts';
import { listVaults } from '#contract/endpoints/reference.ts';
import type { JournalMapping } from '#contract/ledger-periods.ts';
import { toQueryString } from '#contract/paths.ts';
import { apiClient } from '../../../../lib/api-client.ts';

/** The periods and the journal's mapping, under one key: a close or a mapping saved reads both again. */
export const periodQueries = {
  all: () => ['ledger-periods'] as const,
  list: () =>
    queryOptions({
      queryKey: [...periodQueries.all(), 'list'] as const,
      queryFn: ({ signal }) => apiClient.call(listLedgerPeriods, {}, { signal }),
    }),
  mapping: () =>
    queryOptions({
      queryKey: [...periodQueries.all(), 'mapping'] as const,
      queryFn: ({ signal }) => apiClient.call(getJournalMapping, {}, { signal }),
    }),
  /** The mapping page's vaults, a page at a time (keyset cursors), by name when one is given. */
  mappingVaults: (vaultName: string, cursor: string | undefined) =>
    queryOptions({
      queryKey: [...periodQueries.all(), 'mapping-vaults', vaultName, cursor ?? null] as const,
      queryFn: ({ signal }) =>
        apiClient.call(
          listVaults,
          {
            query: {
              limit: MAPPING_PAGE_SIZE,
              ...(vaultName ? { vaultName } : {}),
              ...(cursor ? { cursor } : {}),
            },
          },
          { signal },
        ),
    }),
};

/** Vaults a page on the mapping page: paged and searched by name, never cut short. */
export const MAPPING_PAGE_SIZE = 50;

export function useProposeClose() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (month: string) => apiClient.call(proposeLedgerClose, { body: { month } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: periodQueries.all() }),
  });
}

export function useSetJournalMapping() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (mapping: JournalMapping) => apiClient.call(setJournalMapping, { body: mapping }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: periodQueries.all() }),
  });
}

/** The journal file's address: downloaded by the browser itself, with the session's cookie. */
export const journalUrl = (month: string) => `${pathOf(exportJournal)}${toQueryString({ month })}`;
