import { ContactFilters } from '#contract/reference.ts';
import { defineListSearch, type ListFiltersOf, type ListSearchOf } from '../../lib/list-search.ts';

/** `/contacts` search params: the contract's filters, scope and cursor stack. */
export const contactSearch = defineListSearch(ContactFilters);
export type ContactSearch = ListSearchOf<typeof contactSearch>;
export type ContactSearchFilters = ListFiltersOf<typeof contactSearch>;
