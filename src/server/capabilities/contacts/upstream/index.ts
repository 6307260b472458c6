import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { pathOf } from '#contract/endpoint.ts';
import { createContact, updateContact } from '#contract/endpoints/contact-writes.ts';
import { paths } from '#contract/paths.ts';
import { Contact, ContactListResponse } from '#contract/reference.ts';
import type { CustodyContext } from '../../../custody/call-context.ts';
import type { UpstreamDeps } from '../../../custody/upstream/upstream-deps.ts';
import type { ContactsPort } from '../port.ts';

/** Contacts looked through for one id: 5,000, far beyond an organization's address book. */
const MAX_CONTACT_PAGES = 50;

/**
 * The address book forwarded to the custody API, signed as every call is:
 * its list filtered to a scope here when upstream cannot. Writes are never
 * retried: a lost answer to a create is found again by its externalId (the
 * console's form always sends one), not by sending it twice.
 */
export function contactsUpstream({
  call,
  listPage,
  scopedList,
}: Pick<UpstreamDeps, 'call' | 'listPage' | 'scopedList'>): ContactsPort {
  /**
   * The custody API description has no GET of one contact (only the SDKs
   * hint at one), so the contact is found in its list, a hundred at a time.
   */
  async function getContact(ctx: CustodyContext, id: string): Promise<Contact> {
    let cursor: string | undefined;
    for (let calls = 0; calls < MAX_CONTACT_PAGES; calls += 1) {
      const page = await listPage(
        ctx,
        ContactListResponse,
        paths.contacts(),
        {},
        { limit: 100, cursor },
      );
      const found = page.results.find((contact) => contact.id === id);
      if (found) return found;
      if (!page.hasNext || !page.nextCursor) break;
      cursor = page.nextCursor;
    }
    throw new ApiError(404, ERROR_CODES.notFound, `No contact with id "${id}"`);
  }

  return {
    listContacts: (ctx, q) => scopedList(ctx, ContactListResponse, paths.contacts(), q, false),
    getContact,
    createContact: (ctx, body) =>
      call(ctx, Contact, { method: 'POST', path: pathOf(createContact), body, retry: false }),
    updateContact: (ctx, contactId, body) =>
      call(ctx, Contact, {
        method: 'PUT',
        path: pathOf(updateContact, { contactId }),
        body,
        retry: false,
      }),
  };
}
