import { paths } from '#contract/paths.ts';
import {
  AssetListResponse,
  SubOrg,
  SubOrgListResponse,
  SupportedChainListResponse,
  Vault,
  VaultBalances,
  VaultListResponse,
} from '#contract/reference.ts';
import type { UpstreamDeps } from '../../../custody/upstream/upstream-deps.ts';
import type { ReferencePort } from '../port.ts';

/** Reference data through upstream: vaults filtered to a scope here when upstream cannot. */
export function referenceUpstream({
  call,
  read,
  listPage,
  scopedList,
}: UpstreamDeps): ReferencePort {
  return {
    listVaults: (ctx, q) => scopedList(ctx, VaultListResponse, paths.vaults(), q, false),
    getVault: (ctx, id) => read(ctx, Vault, paths.vault(id)),
    getVaultBalances: (ctx, id) => read(ctx, VaultBalances, paths.vaultBalances(id)),
    listAssets: (ctx) => read(ctx, AssetListResponse, paths.assets()),
    listSupportedChains: (ctx) => read(ctx, SupportedChainListResponse, paths.supportedChains()),
    listSubOrgs: (ctx, q) =>
      listPage(ctx, SubOrgListResponse, paths.subOrgs(), { name: q.name }, q),
    // A create is never retried: a lost answer may have made it, and a name is no key.
    createSubOrg: (ctx, body) =>
      call(ctx, SubOrg, { method: 'POST', path: paths.subOrgs(), body, retry: false }),
  };
}
