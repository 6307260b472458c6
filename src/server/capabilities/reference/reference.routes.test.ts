import { describe, expect } from 'vitest';
import { CHAINS } from '#contract/chains.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import {
  AssetListResponse,
  SubOrgListResponse,
  SupportedChainListResponse,
  Vault,
  VaultBalances,
  VaultListResponse,
} from '#contract/reference.ts';
import { assets } from '../../db/schema/sandbox.ts';
import { createSubOrg, createVault } from '../../test/fixtures.ts';
import { appTest } from '../../test/app-test.ts';
import type { TestApp } from '../../test/test-app.ts';

async function ok(t: TestApp, url: string) {
  const res = await t.getJson(url);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('vaults', () => {
  appTest(
    'lists vaults with their wallets, filtered by a case-insensitive part of the name',
    async ({ t }) => {
      const vault = await createVault(t.db, {
        orgId: t.orgId,
        vaultName: 'Zebra 100% Reserve',
        vaultType: 'EXCHANGE',
      });
      await createVault(t.db, { orgId: t.orgId, vaultName: 'Other' });
      const page = VaultListResponse.parse(
        await ok(t, `${paths.vaults()}?vaultName=${encodeURIComponent('ebra 100%')}`),
      );
      expect(page.results.map((v) => v.id)).toEqual([vault.id]);
      expect(page.results[0]).toMatchObject({
        orgId: t.orgId,
        vaultName: 'Zebra 100% Reserve',
        vaultType: 'EXCHANGE',
      });
      expect(page.results[0]?.wallets?.map((w) => w.blockchain).sort()).toEqual(
        CHAINS.map((c) => c.value).sort(),
      );
      // LIKE wildcards in the filter are literal.
      expect(
        VaultListResponse.parse(await ok(t, `${paths.vaults()}?vaultName=_ebra`)).results,
      ).toEqual([]);
    },
  );

  appTest('gets one vault, and 404s an unknown one', async ({ t }) => {
    const vault = await createVault(t.db, { orgId: t.orgId });
    expect(Vault.parse(await ok(t, paths.vault(vault.id))).id).toBe(vault.id);
    const res = await t.getJson(paths.vault('nope'));
    expect(res.status).toBe(404);
    expect(ApiErrorBody.parse(res.body).code).toBe('NOT_FOUND');
  });

  appTest('answers balances as {ASSET: {CHAIN: decimal}}', async ({ t }) => {
    const vault = await createVault(t.db, { orgId: t.orgId }, [
      { asset: 'ETH', chain: 'ETHEREUM', amount: '12.500000000000000000' },
      { asset: 'ETH', chain: 'BASE', amount: '0.25' },
      { asset: 'USDC', chain: 'ETHEREUM', amount: '1000000' },
    ]);
    expect(VaultBalances.parse(await ok(t, paths.vaultBalances(vault.id)))).toEqual({
      ETH: { ETHEREUM: '12.5', BASE: '0.25' },
      USDC: { ETHEREUM: '1000000' },
    });
    expect((await t.getJson(paths.vaultBalances('nope'))).status).toBe(404);
  });
});

describe('assets and chains', () => {
  appTest('lists assets with decimals, native asset first per chain', async ({ t }) => {
    await t.db.insert(assets).values([
      { symbol: 'USDC', blockChain: 'ETHEREUM', name: 'USD Coin', decimals: 6 },
      { symbol: 'ETH', blockChain: 'ETHEREUM', name: 'Ether', decimals: 18, isNative: true },
    ]);
    const list = AssetListResponse.parse(await ok(t, paths.assets()));
    expect(list.filter((a) => a.blockChain === 'ETHEREUM')).toEqual([
      {
        symbol: 'ETH',
        blockChain: 'ETHEREUM',
        name: 'Ether',
        decimals: 18,
        details: { decimals: 18, isNative: true },
      },
      {
        symbol: 'USDC',
        blockChain: 'ETHEREUM',
        name: 'USD Coin',
        decimals: 6,
        details: { decimals: 6, isNative: false },
      },
    ]);
  });

  appTest('lists the supported chains', async ({ t }) => {
    const chains = SupportedChainListResponse.parse(await ok(t, paths.supportedChains()));
    expect(chains.map((c) => c.value)).toEqual(CHAINS.map((c) => c.value));
    expect(chains[0]?.label).toBe('Ethereum');
    // The SDKs' ChainData requires a logo: an SVG badge served inline, no third-party image.
    expect(chains.every((c) => c.logo?.startsWith('data:image/svg+xml,'))).toBe(true);
  });
});

describe('sub-organizations', () => {
  appTest('pages sub-organizations newest first', async ({ t }) => {
    const a = await createSubOrg(t.db, t.orgId, 'A');
    const b = await createSubOrg(t.db, t.orgId, 'B');
    const first = SubOrgListResponse.parse(await ok(t, `${paths.subOrgs()}?limit=1`));
    expect(first.hasNext).toBe(true);
    const all = SubOrgListResponse.parse(await ok(t, `${paths.subOrgs()}?limit=100`));
    expect(all.results.map((s) => s.id)).toEqual(expect.arrayContaining([a.id, b.id]));
    expect(all.results.every((s) => s.orgId === t.orgId)).toBe(true);
    const res = await t.getJson(`${paths.subOrgs()}?limit=0`);
    expect(ApiErrorBody.parse(res.body).code).toBe('INVALID_LIMIT');
  });
});
