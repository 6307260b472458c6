import { Hono } from 'hono';
import { createContact, updateContact } from '#contract/endpoints/contact-writes.ts';
import { getContact, listContacts } from '#contract/endpoints/contacts.ts';
import type { Contact } from '#contract/reference.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import { mountCustody } from '../../custody/routes/parse-body.ts';
import type { AppEnv } from '../../http/app-env.ts';

/** The address book's custody endpoints: its list, one contact, propose one, change its assets. */
export function contactRoutes(backend: CustodyBackend) {
  const app = new Hono<AppEnv>();
  mountCustody(app, listContacts, ({ query }, c) => backend.listContacts(custodyContext(c), query));
  mountCustody(app, getContact, ({ params }, c) =>
    backend.getContact(custodyContext(c), params.contactId),
  );
  mountCustody(
    app,
    createContact,
    // The address's checksum rules live in the contract's schema, shared with the form.
    ({ body }, c) => backend.createContact(custodyContext(c), body),
    {
      audit: {
        summary: (answer) =>
          `Contact ${describe(answer)} proposed, status ${text(answer, 'status')}`,
      },
    },
  );
  mountCustody(
    app,
    updateContact,
    ({ params, body }, c) => backend.updateContact(custodyContext(c), params.contactId, body),
    {
      audit: {
        summary: (answer) =>
          `Contact ${describe(answer)}: assets ${list(answer.pendingAssetList)} proposed (approved now: ${list(answer.assetList)})`,
      },
    },
  );
  return app;
}

const text = (answer: Contact, field: keyof Contact) =>
  typeof answer[field] === 'string' ? answer[field] : 'unknown';
const list = (assets: unknown) =>
  Array.isArray(assets) && assets.length > 0 ? assets.join(', ') : 'any';
const describe = (answer: Contact) =>
  `"${text(answer, 'name')}" on ${text(answer, 'blockChain')} ${text(answer, 'address')}`;
