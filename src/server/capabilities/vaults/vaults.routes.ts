import { Hono } from 'hono';
import { createVault } from '#contract/endpoints/vault-writes.ts';
import {
  getDepositAddress,
  getDetailedBalances,
  getVaultDepositInstructions,
  updateBalances,
} from '#contract/endpoints/vaults.ts';
import type { Vault } from '#contract/reference.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import { mountCustody } from '../../custody/routes/parse-body.ts';
import type { AppEnv } from '../../http/app-env.ts';

/** Vaults' custody endpoints beyond the reference reads. */
export function vaultRoutes(backend: CustodyBackend) {
  const app = new Hono<AppEnv>();
  mountCustody(app, getDetailedBalances, ({ params }, c) =>
    backend.getDetailedBalances(custodyContext(c), params.vaultId),
  );
  mountCustody(app, updateBalances, ({ params }, c) =>
    backend.updateBalances(custodyContext(c), params.vaultId),
  );
  mountCustody(app, getDepositAddress, ({ query }, c) =>
    backend.getDepositAddress(custodyContext(c), query),
  );
  mountCustody(app, getVaultDepositInstructions, ({ params, query }, c) =>
    backend.getVaultDepositInstructions(custodyContext(c), params.vaultId, query),
  );
  mountCustody(app, createVault, ({ body }, c) => backend.createVault(custodyContext(c), body), {
    audit: {
      summary: (answer) => {
        const vault = answer as Vault;
        const chains = (vault.wallets ?? []).map((w) => w.blockchain).join(', ');
        return `Vault "${vault.vaultName ?? ''}" created with wallets on ${chains || 'no chain'}`;
      },
    },
  });
  return app;
}
