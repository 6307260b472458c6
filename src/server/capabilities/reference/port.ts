import type { Page, PageRequest } from '#contract/common.ts';
import type {
  SubOrgFilters,
  Asset,
  SubOrg,
  SupportedChain,
  Vault,
  VaultBalances,
  VaultFilters,
} from '#contract/reference.ts';
import type { SubOrgCreateRequest } from '#contract/sub-org-writes.ts';
import type { CustodyContext, ScopeFilter } from '../../custody/call-context.ts';

export type VaultListQuery = PageRequest & VaultFilters & ScopeFilter;
export type SubOrgListQuery = PageRequest & SubOrgFilters;
/** A page of vaults; asked for by `page`, with how many match (the older SDKs' `count`). */
export type VaultPage = Page<Vault> & { count?: number };

/**
 * Reference data, as either backend answers it: vaults, balances, assets,
 * chains, sub-orgs. The address book's reads are the contacts port's.
 */
export interface ReferencePort {
  // Supporting reads.
  listVaults(ctx: CustodyContext, query: VaultListQuery): Promise<VaultPage>;
  getVault(ctx: CustodyContext, vaultId: string): Promise<Vault>;
  getVaultBalances(ctx: CustodyContext, vaultId: string): Promise<VaultBalances>;
  listAssets(ctx: CustodyContext): Promise<Asset[]>;
  listSupportedChains(ctx: CustodyContext): Promise<SupportedChain[]>;
  listSubOrgs(ctx: CustodyContext, query: SubOrgListQuery): Promise<Page<SubOrg>>;
  /** A new sub-organization of the caller's organization (createSubOrg). */
  createSubOrg(ctx: CustodyContext, body: SubOrgCreateRequest): Promise<SubOrg>;
}

// The backend the routes speak to holds this port: each capability adds its
// own, so custody/backend.ts composes them without importing any capability.
declare module '../../custody/backend.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into CustodyBackend
  interface CustodyBackend extends ReferencePort {}
}
