import { ChangeRequestHistory } from '../change-request.ts';
import { endpoint } from '../endpoint.ts';
import { Contact, ContactFilters, ContactListResponse } from '../reference.ts';

/**
 * Reading the address book: its list, one contact, and who proposed and
 * decided it. Proposing and changing a contact are in `contact-writes.ts`
 * (their address rules load with the form).
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

export const getContact = endpoint({
  method: 'GET',
  path: '/api/external/contacts/:contactId/',
  summary: 'One contact: its chain, address, status, assets and any asset list awaiting approval.',
  action: 'read',
  permission: 'read',
  audit: false,
  resource: 'contact',
  answer: Contact,
});

export const contactHistory = endpoint({
  method: 'GET',
  path: '/api/console/contacts/:contactId/history/',
  summary:
    'Who proposed the contact and each change to it, who decided each, when, and the reason, named.',
  action: 'read contact history',
  permission: 'read',
  audit: false,
  resource: 'contact',
  answer: ChangeRequestHistory,
});
