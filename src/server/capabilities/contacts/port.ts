import type { ContactCreateRequest, ContactUpdateRequest } from '#contract/contact.ts';
import type { Contact } from '#contract/reference.ts';
import type { CustodyContext } from '../../custody/call-context.ts';

/**
 * The address book's writes, as either backend answers them (the SDKs'
 * createContact and updateContact). Its reads (list, one contact) are
 * reference data (`capabilities/reference/port.ts`): the create forms read
 * them too.
 */
export interface ContactsPort {
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
