import { ChangeRequestHistory } from '../change-request.ts';
import { endpoint } from '../endpoint.ts';
import { Contact } from '../reference.ts';

// The address book's list fills pickers on many pages: declared apart (first load).
export { listContacts } from './contact-list.ts';

/**
 * Reading the address book: its list, one contact, and who proposed and
 * decided it. Proposing and changing a contact are in `contact-writes.ts`
 * (their address rules load with the form).
 */

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
