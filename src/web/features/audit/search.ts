import * as z from 'zod/mini';
import { AuditFilters } from '#contract/staff-record.ts';
import { defineListSearch, type ListFiltersOf, type ListSearchOf } from '../../lib/list-search.ts';

/**
 * `/audit` search params: the contract's AuditFilters but the entity type,
 * which the page offers no filter for (the log is not scoped), and the cursor
 * stack; From and To as days, read in the member's time zone.
 */
export const auditSearch = defineListSearch(z.omit(AuditFilters, { entityType: true }), {
  days: ['atGte', 'atLte'],
});
export type AuditSearch = ListSearchOf<typeof auditSearch>;
export type AuditSearchFilters = ListFiltersOf<typeof auditSearch>;
