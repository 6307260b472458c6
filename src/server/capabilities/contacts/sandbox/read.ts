import { and, eq, ilike, inArray, type SQL } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { Page } from '#contract/common.ts';
import type { Contact } from '#contract/reference.ts';
import type { Database } from '../../../db/client.ts';
import { contacts } from '../../../db/schema/sandbox.ts';
import { containsPattern } from '../../../custody/sandbox/contains-pattern.ts';
import { after, decodeCursor, keysetPage, newestFirst } from '../../../custody/sandbox/keyset.ts';
import { toWireContact } from '../../../custody/sandbox/mappers.ts';
import type { ContactListQuery } from '../port.ts';
import { pendingAssetLists } from './contact-pending-changes.ts';

/** The address book's reads: its list and one contact, each with any asset list awaiting approval. */

export async function listContacts(
  db: Database,
  orgId: string | null,
  query: ContactListQuery,
): Promise<Page<Contact>> {
  const position = query.cursor ? decodeCursor('contacts', query.cursor) : undefined;
  if (!orgId) return { results: [], hasNext: false, nextCursor: null };
  const conditions: Array<SQL | undefined> = [
    eq(contacts.orgId, orgId),
    query.name ? ilike(contacts.name, containsPattern(query.name)) : undefined,
    query.status ? eq(contacts.status, query.status) : undefined,
    query.blockChain ? eq(contacts.blockChain, query.blockChain) : undefined,
    query.externalId ? eq(contacts.externalId, query.externalId) : undefined,
    query.subOrgId ? eq(contacts.subOrgId, query.subOrgId) : undefined,
    query.subOrgIds ? inArray(contacts.subOrgId, query.subOrgIds) : undefined,
    position ? after(contacts, position) : undefined,
  ];
  const page = await keysetPage(
    'contacts',
    query.limit,
    (take) =>
      db
        .select()
        .from(contacts)
        .where(and(...conditions))
        .orderBy(...newestFirst(contacts))
        .limit(take),
    toWireContact,
  );
  return { ...page, results: await withPendingAssetLists(db, orgId, page.results) };
}

export async function getContact(
  db: Database,
  orgId: string | null,
  contactId: string,
): Promise<Contact> {
  const [row] = orgId
    ? await db
        .select()
        .from(contacts)
        .where(and(eq(contacts.orgId, orgId), eq(contacts.id, contactId)))
        .limit(1)
    : [];
  if (!row) throw new ApiError(404, ERROR_CODES.notFound, `No contact with id "${contactId}"`);
  const [contact] = await withPendingAssetLists(db, orgId ?? '', [toWireContact(row)]);
  return contact ?? toWireContact(row);
}

/** Each contact with the asset list proposed for it and awaiting approval, if any. */
async function withPendingAssetLists(
  db: Database,
  orgId: string,
  list: Contact[],
): Promise<Contact[]> {
  const ids = list.flatMap((c) => (c.id ? [c.id] : []));
  const pending = await pendingAssetLists(db, orgId, ids);
  return pending.size === 0
    ? list
    : list.map((c) =>
        c.id && pending.has(c.id) ? { ...c, pendingAssetList: pending.get(c.id) } : c,
      );
}
