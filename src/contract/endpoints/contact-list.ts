import { endpoint } from '../endpoint.ts';
import { ContactFilters, ContactListResponse } from '../reference.ts';

/**
 * The address book's list, which pickers on many pages read: apart from one
 * contact and its history (`contacts.ts`, which re-exports it), so that the
 * first load carries neither them nor their schemas.
 */

export const listContacts = endpoint({
  method: 'GET',
  path: '/api/external/contacts/',
  summary: 'Contacts (whitelisted addresses) in scope, keyset-paged; `name` filters by name.',
  action: 'read',
  permission: 'read',
  audit: false,
  query: ContactFilters,
  paged: true,
  answer: ContactListResponse,
});
