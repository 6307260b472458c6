import { z } from 'zod';
import { IsoTimestamp } from '../../../contract/common.ts';
import { TransactionCategory, TransactionStatus } from '../../../contract/enums.ts';
import type { TransactionListParams } from '../../lib/api-client.ts';
import { compact, cursorPageSearch } from '../../lib/paging.ts';
import { scopeSearch } from '../../lib/scope.ts';

const text = (max: number) => z.string().trim().min(1).max(max).optional().catch(undefined);

/**
 * `/transactions` search params. A value that does not parse is dropped
 * rather than failing the page: a stale bookmark still opens.
 */
export const TransactionSearch = z.object({
  status: TransactionStatus.optional().catch(undefined),
  category: TransactionCategory.optional().catch(undefined),
  asset: text(32),
  vaultId: text(128),
  createdAtGte: IsoTimestamp.optional().catch(undefined),
  createdAtLte: IsoTimestamp.optional().catch(undefined),
  externalId: text(128),
  ...cursorPageSearch,
  ...scopeSearch,
});
export type TransactionSearch = z.output<typeof TransactionSearch>;

export const TRANSACTION_SEARCH_FILTERS = [
  'status',
  'category',
  'asset',
  'vaultId',
  'createdAtGte',
  'createdAtLte',
  'externalId',
] as const satisfies ReadonlyArray<keyof TransactionSearch>;

export type TransactionSearchFilters = Pick<
  TransactionSearch,
  (typeof TRANSACTION_SEARCH_FILTERS)[number]
>;

/**
 * The list call (and query key) for a search: filters, the scope as
 * `subOrgId`, and the current cursor, not the history.
 */
export function toTransactionListParams(search: TransactionSearch): TransactionListParams {
  return compact({
    ...pickTransactionFilters(search),
    subOrgId: search.subOrg,
    cursor: search.cursor,
  });
}

export function pickTransactionFilters(search: TransactionSearch): TransactionSearchFilters {
  return compact(
    Object.fromEntries(TRANSACTION_SEARCH_FILTERS.map((key) => [key, search[key]])),
  ) as TransactionSearchFilters;
}

export function hasActiveFilters(search: TransactionSearch): boolean {
  return TRANSACTION_SEARCH_FILTERS.some((key) => search[key] !== undefined);
}

/** Applies filter changes; any change starts again from the first page (the scope stays). */
export function withTransactionFilters(
  search: TransactionSearch,
  patch: Partial<TransactionSearchFilters>,
): TransactionSearch {
  return compact({ ...search, ...patch, cursor: undefined, prev: undefined });
}
