import { describe, expect } from 'vitest';
import { paths } from '#contract/paths.ts';
import { TransactionListResponse } from '#contract/transaction.ts';
import { VaultListResponse } from '#contract/reference.ts';
import { engineTest } from '../test/engine-test.ts';
import { createSubOrg, createVault } from '../test/fixtures.ts';
import { sdkCaller } from '../test/sdk-wire.ts';

// An API user held to sub-organizations is scoped on every external route as a member
// held to them is (wiring/scoped-backend.ts): lists filtered to them, anything else 404.

const transfer = (vaultId: string, externalId: string) => ({
  source: { type: 'VAULT', id: vaultId, value: null },
  destination: {
    type: 'EXTERNAL_ADDRESS',
    id: null,
    value: '0x1111111111111111111111111111111111111111',
  },
  amount: '1',
  asset: 'USDC',
  blockChain: 'ETHEREUM',
  category: 'TRANSFER',
  gasParams: {},
  externalId,
});

describe('an API user held to one sub-organization', () => {
  engineTest(
    'lists only its vaults and transactions; a vault outside is 404 to read and to pay from; one inside is its to use',
    async ({ t, f }) => {
      const desk = await createSubOrg(t.db, t.orgId, 'API desk');
      const deskVault = await createVault(
        t.db,
        { orgId: t.orgId, subOrgId: desk.id, vaultName: 'API desk vault' },
        [{ asset: 'USDC', chain: 'ETHEREUM', amount: '100' }],
      );
      const held = await sdkCaller(t, 'held bot', [desk.id]);
      const free = await sdkCaller(t, 'free bot');
      const get = (client: typeof held, url: string) =>
        client.call('js', 'GET', url, undefined, url);

      const vaults = VaultListResponse.parse(
        (await get(held, `${paths.vaults()}?limit=100&cursor=`)).body,
      );
      expect(vaults.results.map((v) => v.id)).toEqual([deskVault.id]);
      expect((await get(held, paths.vault(f.treasury.id))).status).toBe(404);
      expect((await get(free, paths.vault(f.treasury.id))).status).toBe(200);
      expect((await get(held, paths.vault(deskVault.id))).status).toBe(200);

      const outside = await held.call(
        'python',
        'POST',
        paths.transactions(),
        transfer(f.treasury.id, 'held-out-1'),
      );
      expect(outside.status, outside.text).toBe(404);
      const inside = await held.call(
        'python',
        'POST',
        paths.transactions(),
        transfer(deskVault.id, 'held-in-1'),
      );
      expect(inside.status, inside.text).toBe(200);

      const listed = TransactionListResponse.parse(
        (await get(held, `${paths.transactions()}?limit=100&cursor=`)).body,
      );
      expect(listed.results.length).toBeGreaterThan(0);
      expect(new Set(listed.results.map((r) => r.subOrgId))).toEqual(new Set([desk.id]));
      // Named outright, a transaction outside is as absent as its vault.
      const theirs = await get(free, `${paths.transactions()}?limit=1&cursor=`);
      const [other] = TransactionListResponse.parse(theirs.body).results.filter(
        (r) => r.subOrgId !== desk.id,
      );
      if (other?.id) expect((await get(held, paths.transaction(other.id))).status).toBe(404);
    },
  );
});
