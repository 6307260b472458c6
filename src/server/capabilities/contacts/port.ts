import type { Page, PageRequest } from '#contract/common.ts';
import type { ContactCreateRequest, ContactUpdateRequest } from '#contract/contact.ts';
import type { Contact, ContactFilters } from '#contract/reference.ts';
import type { CustodyContext, ScopeFilter } from '../../custody/call-context.ts';

export type ContactListQuery = PageRequest & ContactFilters & ScopeFilter;

/**
 * The address book, as either backend answers it: its list and one contact
 * (what the create forms, the approvals inbox and the policies read too,
 * through `CustodyBackend`), and its writes (the SDKs' createContact and
 * updateContact).
 */
export interface ContactsPort {
  listContacts(ctx: CustodyContext, query: ContactListQuery): Promise<Page<Contact>>;
  /** One contact, 404 if unknown: the scope layer checks whom a create pays. */
  getContact(ctx: CustodyContext, contactId: string): Promise<Contact>;
  /** Created PENDING with a change request awaiting approval. */
  createContact(ctx: CustodyContext, body: ContactCreateRequest): Promise<Contact>;
  /**
   * A new asset list for an approved contact, as a change request of its own:
   * the contact keeps its approved list (`assetList`) until it is approved,
   * and answers the proposal as `pendingAssetList`.
   */
  updateContact(
    ctx: CustodyContext,
    contactId: string,
    body: ContactUpdateRequest,
  ): Promise<Contact>;
}

// The backend the routes speak to holds this port: each capability adds its
// own, so custody/backend.ts composes them without importing any capability.
declare module '../../custody/backend.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into CustodyBackend
  interface CustodyBackend extends ContactsPort {}
}
