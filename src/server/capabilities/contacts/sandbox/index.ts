import type { Clock } from '../../../clock.ts';
import type { CustodyContext } from '../../../custody/call-context.ts';
import type { Database } from '../../../db/client.ts';
import type { ContactsPort } from '../port.ts';
import { createContact } from './create.ts';
import { getContact, listContacts } from './read.ts';
import { updateContact } from './update.ts';

/** What the address book needs of the sandbox composite (a subset of its SandboxDeps). */
interface ContactsSandboxDeps {
  db: Database;
  clock: Clock;
  orgIdFor(ctx: CustodyContext): Promise<string | null>;
}

export function contactsSandbox({ db, clock, orgIdFor }: ContactsSandboxDeps): ContactsPort {
  return {
    listContacts: async (ctx, query) => listContacts(db, await orgIdFor(ctx), query),
    getContact: async (ctx, id) => getContact(db, await orgIdFor(ctx), id),
    createContact: async (ctx, body) =>
      createContact(db, await orgIdFor(ctx), ctx.actor, body, clock.now()),
    updateContact: async (ctx, contactId, body) =>
      updateContact(db, await orgIdFor(ctx), ctx.actor, contactId, body, clock.now()),
  };
}
