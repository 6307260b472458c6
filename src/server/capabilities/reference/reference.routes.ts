import { Hono } from 'hono';
import * as reference from '#contract/endpoints/reference.ts';
import { createSubOrg } from '#contract/endpoints/sub-org-writes.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import { mountCustody } from '../../custody/routes/parse-body.ts';

/** Supporting reads: vaults, vault balances, assets, supported chains, sub-organizations. */
export function referenceRoutes(backend: CustodyBackend) {
  const app = new Hono<AppEnv>();
  mountCustody(app, reference.listVaults, ({ query }, c) =>
    backend.listVaults(custodyContext(c), query),
  );
  mountCustody(app, reference.getVault, ({ params }, c) =>
    backend.getVault(custodyContext(c), params.vaultId),
  );
  mountCustody(app, reference.getVaultBalances, ({ params }, c) =>
    backend.getVaultBalances(custodyContext(c), params.vaultId),
  );
  mountCustody(app, reference.listAssets, (_input, c) => backend.listAssets(custodyContext(c)));
  mountCustody(app, reference.listSupportedChains, (_input, c) =>
    backend.listSupportedChains(custodyContext(c)),
  );
  mountCustody(app, reference.listSubOrgs, ({ query }, c) =>
    backend.listSubOrgs(custodyContext(c), query),
  );
  mountCustody(app, createSubOrg, ({ body }, c) => backend.createSubOrg(custodyContext(c), body), {
    audit: { summary: (answer) => `Sub-organization "${answer.name ?? ''}" created` },
  });
  return app;
}
