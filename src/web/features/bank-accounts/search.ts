import { BankAccountFilters } from '#contract/bank-account-record.ts';
import { defineListSearch, type ListFiltersOf, type ListSearchOf } from '../../lib/list-search.ts';

/** `/bank-accounts` search params: the contract's filters, scope and cursor stack. */
export const bankAccountSearch = defineListSearch(BankAccountFilters);
export type BankAccountSearch = ListSearchOf<typeof bankAccountSearch>;
export type BankAccountSearchFilters = ListFiltersOf<typeof bankAccountSearch>;
