import { queryOptions } from '@tanstack/react-query';
import { contactHistory, getContact, listContacts } from '#contract/endpoints/contacts.ts';
import { apiClient, type ContactListParams } from '../../../lib/api-client.ts';
import { listQueries } from '../../../lib/list-queries.ts';

export const contactQueries = {
  ...listQueries('contacts', (params: ContactListParams, signal) =>
    apiClient.call(listContacts, { query: params }, { signal }),
  ),
  details: () => [...contactQueries.all(), 'detail'] as const,
  detail: (contactId: string) =>
    queryOptions({
      queryKey: [...contactQueries.details(), contactId] as const,
      queryFn: ({ signal }) => apiClient.call(getContact, { params: { contactId } }, { signal }),
    }),
  /** Who proposed and decided it, and each change: under its detail key, so one invalidation covers both. */
  history: (contactId: string) =>
    queryOptions({
      queryKey: [...contactQueries.details(), contactId, 'history'] as const,
      queryFn: ({ signal }) =>
        apiClient.call(contactHistory, { params: { contactId } }, { signal }),
    }),
};
