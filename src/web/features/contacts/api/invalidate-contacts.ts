import type { QueryClient } from '@tanstack/react-query';
import { invalidateApprovalInbox } from '../../../lib/approval-inbox-count.ts';
import { referenceQueries } from '../../../lib/reference-queries.ts';
import { contactQueries } from './contact-queries.ts';

/**
 * After a contact is proposed, changed or decided: its page, the lists, the
 * inbox, and the transfer form's picker (reference data, kept for a minute
 * otherwise), so an approved contact is offered at once and a declined one
 * never lingers.
 */
export function invalidateContacts(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: contactQueries.all() }),
    queryClient.invalidateQueries({ queryKey: referenceQueries.contacts().queryKey }),
    invalidateApprovalInbox(queryClient),
  ]);
}
