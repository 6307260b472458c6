import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import {
  AssetListResponse,
  ContactListResponse,
  SubOrgListResponse,
  SupportedChainListResponse,
  Vault,
  VaultBalances,
  VaultListResponse,
  type Contact,
} from '#contract/reference.ts';
import type { CustodyContext } from '../../../custody/backend.ts';
import type { UpstreamDeps } from '../../../custody/upstream/upstream-deps.ts';
import type { ReferencePort } from '../port.ts';

/** Contacts looked through for one id: 5,000, far beyond an organization's address book. */
const MAX_CONTACT_PAGES = 50;

/** Reference data through upstream: vaults and contacts filtered to a scope here when upstream cannot. */
export function referenceUpstream({ read, listPage, scopedList }: UpstreamDeps): ReferencePort {
  /**
   * The custody API description has no GET of one contact (only the SDKs
   * hint at one), so the contact is found in its list, a hundred at a time.
   */
  async function getContact(ctx: CustodyContext, id: string): Promise<Contact> {
    let cursor: string | undefined;
    for (let call = 0; call < MAX_CONTACT_PAGES; call += 1) {
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
    listVaults: (ctx, q) => scopedList(ctx, VaultListResponse, paths.vaults(), q, false),
    getVault: (ctx, id) => read(ctx, Vault, paths.vault(id)),
    getVaultBalances: (ctx, id) => read(ctx, VaultBalances, paths.vaultBalances(id)),
    listContacts: (ctx, q) => scopedList(ctx, ContactListResponse, paths.contacts(), q, false),
    getContact,
    listAssets: (ctx) => read(ctx, AssetListResponse, paths.assets()),
    listSupportedChains: (ctx) => read(ctx, SupportedChainListResponse, paths.supportedChains()),
    listSubOrgs: (ctx, q) => listPage(ctx, SubOrgListResponse, paths.subOrgs(), {}, q),
  };
}
