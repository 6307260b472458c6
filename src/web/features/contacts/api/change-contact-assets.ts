import { useMutation, useQueryClient } from '@tanstack/react-query';
import { updateContact } from '#contract/endpoints/contact-writes.ts';
import { apiClient } from '../../../lib/api-client.ts';
import { invalidateContacts } from './invalidate-contacts.ts';

/** Proposes a new asset list for an approved contact: it waits for approval like the contact did. */
export function useChangeContactAssets(contactId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (assetList: string[]) =>
      apiClient.call(updateContact, { params: { contactId }, body: { assetList } }),
    onSettled: () => invalidateContacts(queryClient),
  });
}
