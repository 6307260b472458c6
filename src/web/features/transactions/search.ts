import { TransactionFilters } from '../../../contract/transaction.ts';
import { defineListSearch, type ListFiltersOf, type ListSearchOf } from '../../lib/list-search.ts';

/** `/transactions` search params: the contract's filters, scope and cursor stack. */
export const transactionSearch = defineListSearch(TransactionFilters, [
  'status',
  'category',
  'asset',
  'vaultId',
  'createdAtGte',
  'createdAtLte',
  'externalId',
]);
export type TransactionSearch = ListSearchOf<typeof transactionSearch>;
export type TransactionSearchFilters = ListFiltersOf<typeof transactionSearch>;
