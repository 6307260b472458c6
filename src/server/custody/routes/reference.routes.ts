import { Hono } from 'hono';
import { ContactFilters, VaultFilters } from '../../../contract/reference.ts';
import { routes } from '../../../contract/paths.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { READ, rule } from '../../http/route-rule.ts';
import type { CustodyBackend } from '../backend.ts';
import { custodyContext } from '../context.ts';
import { parseFilters, parsePageRequest, pathId } from '../../http/list-query.ts';

/** Supporting reads: vaults, vault balances, contacts, assets, supported chains, sub-organizations. */
export function referenceRoutes(backend: CustodyBackend) {
  return new Hono<AppEnv>()
    .get(routes.vaults, rule(READ), async (c) => {
      const page = parsePageRequest(c);
      const query = { ...parseFilters(c, VaultFilters), ...page };
      return c.json(await backend.listVaults(custodyContext(c), query));
    })
    .get(routes.vault, rule(READ), async (c) =>
      c.json(await backend.getVault(custodyContext(c), pathId(c, 'vaultId', 'vault'))),
    )
    .get(routes.vaultBalances, rule(READ), async (c) =>
      c.json(await backend.getVaultBalances(custodyContext(c), pathId(c, 'vaultId', 'vault'))),
    )
    .get(routes.contacts, rule(READ), async (c) => {
      const page = parsePageRequest(c);
      const query = { ...parseFilters(c, ContactFilters), ...page };
      return c.json(await backend.listContacts(custodyContext(c), query));
    })
    .get(routes.assets, rule(READ), async (c) =>
      c.json(await backend.listAssets(custodyContext(c))),
    )
    .get(routes.supportedChains, rule(READ), async (c) =>
      c.json(await backend.listSupportedChains(custodyContext(c))),
    )
    .get(routes.subOrgs, rule(READ), async (c) =>
      c.json(await backend.listSubOrgs(custodyContext(c), parsePageRequest(c))),
    );
}
