import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { apiClient, type AuditListParams } from '../../../lib/api-client.ts';

export const auditQueries = {
  all: () => ['audit'] as const,
  lists: () => [...auditQueries.all(), 'list'] as const,
  list: (params: AuditListParams) =>
    queryOptions({
      queryKey: [...auditQueries.lists(), params] as const,
      queryFn: ({ signal }) => apiClient.listAudit(params, { signal }),
      placeholderData: keepPreviousData,
      // The log only grows: a page read a moment ago is still right, but new
      // entries arrive with every action anyone takes.
      staleTime: 5_000,
    }),
};
