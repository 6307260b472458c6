import type { AuditFilters } from '#contract/auth.ts';
import type { ListParams } from '#contract/common.ts';
import { listAudit } from '#contract/endpoints/staff.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { listQueries } from '../../../lib/list-queries.ts';

export const auditQueries = listQueries(
  'audit',
  (query: ListParams<AuditFilters>, signal) => apiClient.call(listAudit, { query }, { signal }),
  // The log only grows: a page read a moment ago is still right, but new
  // entries arrive with every action anyone takes.
  { staleTime: 5_000 },
);
