import type { CustodyBackend } from '../../custody/backend.ts';
import { allowedIds, checked, keepInScope, scopeListQuery } from '../../console/scope-rules.ts';
import type { ReferencePort } from './port.ts';

/**
 * Reference data held to a member's sub-organizations
 * (console/scope-rules.ts): vaults listed in the scope only, a vault (and
 * its balances) outside it is 404, and the sub-org list holds the member's
 * own. Assets and chains belong to no sub-org. Contacts: contacts/scope.ts.
 */
export function referenceScope(inner: CustodyBackend): ReferencePort {
  return {
    listVaults: async (ctx, q) =>
      keepInScope(ctx, await inner.listVaults(ctx, scopeListQuery(ctx, q))),
    getVault: async (ctx, id) => checked(ctx, 'vault', id, await inner.getVault(ctx, id)),
    getVaultBalances: async (ctx, id) => {
      checked(ctx, 'vault', id, await inner.getVault(ctx, id));
      return inner.getVaultBalances(ctx, id);
    },
    listAssets: inner.listAssets,
    listSupportedChains: inner.listSupportedChains,
    listSubOrgs: async (ctx, q) => {
      const page = await inner.listSubOrgs(ctx, q);
      const ids = allowedIds(ctx);
      return ids
        ? { ...page, results: page.results.filter((s) => !!s.id && ids.includes(s.id)) }
        : page;
    },
  };
}
