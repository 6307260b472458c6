import { cachedRead } from '../../../db/read-cache.ts';
import { assets, subOrgs, vaults, wallets } from '../../../db/schema/sandbox.ts';
import type { SandboxDeps } from '../../../custody/sandbox/sandbox-deps.ts';
import type { ReferencePort } from '../port.ts';
import { noOrganization } from '../../../custody/sandbox/engine/problems.ts';
import {
  createSubOrg,
  getVault,
  getVaultBalances,
  listAssets,
  listSubOrgs,
  listSupportedChains,
  listVaults,
} from './store.ts';

/**
 * Reference data over the sandbox's tables. What every signed-in page reads
 * (and every server render of the list: http/server-render.ts) is reused
 * while nothing commits too.
 */
export function referenceSandbox({ db, clock, orgIdFor, cachedList }: SandboxDeps): ReferencePort {
  return {
    listVaults: (ctx, query) =>
      cachedList(ctx, 'vaults', query, [vaults, wallets], (orgId) => listVaults(db, orgId, query)),
    getVault: async (ctx, id) => getVault(db, await orgIdFor(ctx), id),
    getVaultBalances: async (ctx, id) => getVaultBalances(db, await orgIdFor(ctx), id),
    listAssets: async () => cachedRead('assets', () => listAssets(db), [assets]),
    listSupportedChains: async () => listSupportedChains(),
    listSubOrgs: (ctx, query) =>
      cachedList(ctx, 'sub-orgs', query, [subOrgs], (orgId) => listSubOrgs(db, orgId, query)),
    createSubOrg: async (ctx, body) => {
      const orgId = await orgIdFor(ctx);
      if (!orgId) throw noOrganization();
      return createSubOrg(db, orgId, body.name, clock.now());
    },
  };
}
