import { ContactCreateRequest, ContactUpdateRequest } from '../contact.ts';
import { endpoint } from '../endpoint.ts';
import { Contact } from '../reference.ts';

/**
 * Proposing a contact and changing the assets it may receive (the SDKs'
 * createContact and updateContact): their bodies are the form's address
 * rules (classic zod, the checksums), so this module loads with the form.
 */

export const createContact = endpoint({
  method: 'POST',
  path: '/api/external/contacts/',
  summary:
    'Proposes a contact: PENDING, with a change request awaiting approval (four-eyes for staff).',
  action: 'propose contacts',
  permission: 'initiate',
  audit: { action: 'contact.create', entityType: 'CONTACT' },
  body: ContactCreateRequest,
  // 200, as the bank account's create: the SDKs read the contact from the answer.
  answer: Contact,
});

export const updateContact = endpoint({
  method: 'PUT',
  path: '/api/external/contacts/:contactId/',
  summary:
    'Proposes a new asset list for an approved contact: a change request of its own; the contact keeps its approved list until it is approved.',
  action: 'change contacts',
  permission: 'initiate',
  audit: { action: 'contact.update', entityType: 'CONTACT', entityParam: 'contactId' },
  resource: 'contact',
  body: ContactUpdateRequest,
  answer: Contact,
});
