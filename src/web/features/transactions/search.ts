import { TransactionFilters } from '#contract/transaction-record.ts';
import { defineListSearch, type ListFiltersOf, type ListSearchOf } from '../../lib/list-search.ts';

/**
 * `/transactions` search params: the contract's filters, scope and cursor
 * stack; From and To as days, read in the member's time zone.
 */
export const transactionSearch = defineListSearch(TransactionFilters, {
  days: ['createdAtGte', 'createdAtLte'],
});
export type TransactionSearch = ListSearchOf<typeof transactionSearch>;
export type TransactionSearchFilters = ListFiltersOf<typeof transactionSearch>;

/**
 * The list as the member last saw it in this tab (filters, page, scope), so
 * the detail page's "back to transactions" link returns to it, as the
 * browser's Back does. Kept in memory only: a reload starts from the plain list.
 */
let lastListSearch: TransactionSearch | undefined;

export function rememberListSearch(search: TransactionSearch): void {
  lastListSearch = search;
}

/** The remembered list, unless the scope has changed since (its cursors belong to the other scope). */
export function listSearchToReturnTo(subOrg: string | undefined): TransactionSearch {
  if (!lastListSearch || lastListSearch.subOrg !== subOrg) return { subOrg };
  return lastListSearch;
}
