import { describe, expect } from 'vitest';
import { StakedAmount } from '#contract/staked.ts';
import { appTestWith } from '../../test/app-test.ts';
import { createSubOrg, createTransaction, createVault } from '../../test/fixtures.ts';
import type { TestApp } from '../../test/test-app.ts';
import type { CustodyBackend } from '../../custody/backend.ts';

const appTest = appTestWith();
/** The same app over a backend that reports no stake, as the custody API (upstream) does. */
const upstreamTest = appTestWith({
  wrapBackend: (backend: CustodyBackend): CustodyBackend => ({
    ...backend,
    stakedAmount: undefined,
  }),
});

const stakedUrl = (vaultId: string, query: string) =>
  `/api/console/vaults/${vaultId}/staked/?${query}`;

/** A stake-category row of the vault, as the engine leaves it. */
function stakeRow(
  t: TestApp,
  vault: { id: string; subOrgId: string | null },
  over: {
    subCategory: 'STAKE' | 'UNSTAKE';
    status: 'PENDING' | 'COMPLETED' | 'FAILED' | 'DECLINED';
    amount: string;
    resourceType?: 'TRON_ENERGY' | 'TRON_BANDWIDTH';
  },
) {
  return createTransaction(t.db, {
    orgId: t.orgId,
    subOrgId: vault.subOrgId,
    vaultId: vault.id,
    category: 'STAKE',
    blockChain: 'TRON',
    asset: 'TRX',
    ...over,
  });
}

describe('GET /api/console/vaults/{id}/staked/', () => {
  appTest(
    'is the completed stakes less the unstakes not failed or declined, per chain and resource',
    async ({ t, subOrgId, viewer }) => {
      const vault = await createVault(t.db, { orgId: t.orgId, subOrgId });
      const energy = { resourceType: 'TRON_ENERGY' } as const;
      await stakeRow(t, vault, {
        subCategory: 'STAKE',
        status: 'COMPLETED',
        amount: '100',
        ...energy,
      });
      await stakeRow(t, vault, {
        subCategory: 'STAKE',
        status: 'COMPLETED',
        amount: '20.5',
        ...energy,
      });
      // A stake still waiting is not staked yet; a failed or declined unstake took nothing back.
      await stakeRow(t, vault, {
        subCategory: 'STAKE',
        status: 'PENDING',
        amount: '1000',
        ...energy,
      });
      await stakeRow(t, vault, {
        subCategory: 'UNSTAKE',
        status: 'PENDING',
        amount: '30',
        ...energy,
      });
      await stakeRow(t, vault, {
        subCategory: 'UNSTAKE',
        status: 'COMPLETED',
        amount: '0.5',
        ...energy,
      });
      await stakeRow(t, vault, {
        subCategory: 'UNSTAKE',
        status: 'FAILED',
        amount: '50',
        ...energy,
      });
      await stakeRow(t, vault, {
        subCategory: 'UNSTAKE',
        status: 'DECLINED',
        amount: '50',
        ...energy,
      });
      // Bandwidth is staked apart.
      await stakeRow(t, vault, {
        subCategory: 'STAKE',
        status: 'COMPLETED',
        amount: '7',
        resourceType: 'TRON_BANDWIDTH',
      });

      const res = await viewer.json(
        stakedUrl(vault.id, 'blockChain=TRON&resourceType=TRON_ENERGY'),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(StakedAmount.parse(res.body)).toEqual({
        vaultId: vault.id,
        blockChain: 'TRON',
        asset: 'TRX',
        resourceType: 'TRON_ENERGY',
        staked: '90',
      });
      const bandwidth = await viewer.json(
        stakedUrl(vault.id, 'blockChain=TRON&resourceType=TRON_BANDWIDTH'),
      );
      expect(bandwidth.body).toMatchObject({ staked: '7' });
      // Nothing staked on a chain: zero, not an error.
      const eth = await viewer.json(stakedUrl(vault.id, 'blockChain=ETHEREUM'));
      expect(eth.body).toMatchObject({ asset: 'ETH', resourceType: null, staked: '0' });
    },
  );

  appTest(
    'names the field a bad query breaks, and hides a vault outside the member’s scope',
    async ({ t, subOrgId, viewer }) => {
      const vault = await createVault(t.db, { orgId: t.orgId, subOrgId });
      const noChain = await viewer.json(stakedUrl(vault.id, ''));
      expect(noChain).toMatchObject({ status: 400, body: { fields: [{ field: 'blockChain' }] } });
      const noStaking = await viewer.json(stakedUrl(vault.id, 'blockChain=BITCOIN'));
      expect(noStaking).toMatchObject({ status: 400, body: { fields: [{ field: 'blockChain' }] } });
      const badResource = await viewer.json(
        stakedUrl(vault.id, 'blockChain=TRON&resourceType=TRON_STORAGE'),
      );
      expect(badResource).toMatchObject({
        status: 400,
        body: { fields: [{ field: 'resourceType' }] },
      });
      const offTron = await viewer.json(
        stakedUrl(vault.id, 'blockChain=ETHEREUM&resourceType=TRON_ENERGY'),
      );
      expect(offTron).toMatchObject({ status: 400, body: { fields: [{ field: 'resourceType' }] } });

      const elsewhere = await createSubOrg(t.db, t.orgId, 'Elsewhere');
      const outsider = await t.signIn('viewer', { subOrgIds: [elsewhere.id] });
      const hidden = await outsider.json(stakedUrl(vault.id, 'blockChain=TRON'));
      expect(hidden).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
      expect((await t.anonymous(stakedUrl(vault.id, 'blockChain=TRON'))).status).toBe(401);
    },
  );
});

describe('the staked read over a backend that reports no stake (upstream)', () => {
  upstreamTest('answers staked null: unknown, never zero', async ({ t, subOrgId, viewer }) => {
    const vault = await createVault(t.db, { orgId: t.orgId, subOrgId });
    const res = await viewer.json(stakedUrl(vault.id, 'blockChain=ETHEREUM'));
    expect(res).toMatchObject({ status: 200, body: { asset: 'ETH', staked: null } });
  });
});
