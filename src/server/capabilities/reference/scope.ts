import type { CustodyBackend } from '../../custody/backend.ts';
import { outsideAdminScope } from '../../console/admin-scope.ts';
import { allowedIds, checked, keepInScope, scopeListQuery } from '../../console/scope-rules.ts';
import type { ReferencePort } from './port.ts';

/**
 * Reference data held to a member's sub-organizations
 * (console/scope-rules.ts): vaults listed in the scope only, a vault (and
 * its balances) outside it is 404, and the sub-org list holds the member's
 * own. Assets and chains belong to no sub-org. A sub-organization belongs to
 * the whole organization: only a caller held to none makes one (an admin of
 * every sub-organization, an API client). Contacts: contacts/scope.ts.
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
    createSubOrg: (ctx, body) => {
      if (allowedIds(ctx))
        throw outsideAdminScope(
          'A sub-organization is the organization’s: only an admin of every sub-organization may make one',
        );
      return inner.createSubOrg(ctx, body);
    },
  };
}
