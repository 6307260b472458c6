import { apiClient, type AuditListParams } from '../../../lib/api-client.ts';
import { listQueries } from '../../../lib/list-queries.ts';

export const auditQueries = listQueries(
  'audit',
  (params: AuditListParams, signal) => apiClient.listAudit(params, { signal }),
  // The log only grows: a page read a moment ago is still right, but new
  // entries arrive with every action anyone takes.
  { staleTime: 5_000 },
);
