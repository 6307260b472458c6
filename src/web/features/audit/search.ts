import { AuditFilters } from '../../../contract/auth.ts';
import { defineListSearch, type ListFiltersOf, type ListSearchOf } from '../../lib/list-search.ts';

/** `/audit` search params: the contract's AuditFilters (the log is not scoped) and cursor stack. */
export const auditSearch = defineListSearch(AuditFilters, [
  'action',
  'outcome',
  'actorId',
  'entityId',
  'atGte',
  'atLte',
]);
export type AuditSearch = ListSearchOf<typeof auditSearch>;
export type AuditSearchFilters = ListFiltersOf<typeof auditSearch>;
