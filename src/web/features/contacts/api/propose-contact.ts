import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ContactCreateRequest } from '#contract/contact.ts';
import { createContact } from '#contract/endpoints/contact-writes.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { contactQueries } from './contact-queries.ts';
import { invalidateContacts } from './invalidate-contacts.ts';

/** Proposes a contact: the server creates it PENDING with the change request that decides it. */
export function useProposeContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ContactCreateRequest) => apiClient.call(createContact, { body }),
    onSuccess: async (contact) => {
      if (contact.id) queryClient.setQueryData(contactQueries.detail(contact.id).queryKey, contact);
      await invalidateContacts(queryClient);
    },
  });
}
