import type { Page, PageRequest } from '#contract/common.ts';
import type {
  Asset,
  Contact,
  ContactFilters,
  SubOrg,
  SupportedChain,
  Vault,
  VaultBalances,
  VaultFilters,
} from '#contract/reference.ts';
import type { CustodyContext, ScopeFilter } from '../../custody/call-context.ts';

export type VaultListQuery = PageRequest & VaultFilters & ScopeFilter;
export type ContactListQuery = PageRequest & ContactFilters & ScopeFilter;

/** Reference data, as either backend answers it: vaults, balances, contacts, assets, chains, sub-orgs. */
export interface ReferencePort {
  // Supporting reads.
  listVaults(ctx: CustodyContext, query: VaultListQuery): Promise<Page<Vault>>;
  getVault(ctx: CustodyContext, vaultId: string): Promise<Vault>;
  getVaultBalances(ctx: CustodyContext, vaultId: string): Promise<VaultBalances>;
  listContacts(ctx: CustodyContext, query: ContactListQuery): Promise<Page<Contact>>;
  /** One contact, 404 if unknown: the scope layer checks whom a create pays. */
  getContact(ctx: CustodyContext, contactId: string): Promise<Contact>;
  listAssets(ctx: CustodyContext): Promise<Asset[]>;
  listSupportedChains(ctx: CustodyContext): Promise<SupportedChain[]>;
  listSubOrgs(ctx: CustodyContext, query: PageRequest): Promise<Page<SubOrg>>;
}
