import { describe, expect } from 'vitest';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { pathOf, toQueryString } from '#contract/endpoint.ts';
import {
  getDepositAddress,
  getDetailedBalances,
  updateBalances,
} from '#contract/endpoints/vaults.ts';
import { add, cmp, mul, round } from '#contract/decimal.ts';
import { paths } from '#contract/paths.ts';
import { Vault, VaultBalances } from '#contract/reference.ts';
import { DepositAddressResponse, DetailedBalanceList } from '#contract/vault.ts';
import { signApprovalMessage } from '../../protocol/api-token.ts';
import { createTestApiUser, type TestApiUser } from '../../test/api-client.ts';
import { engineTest } from '../../test/engine-test.ts';
import type { EngineTestApp } from '../../test/engine-test-app.ts';
import { TREASURY_BALANCES } from '../../test/engine-test-app.ts';
import { sdkRequest, type Sdk } from '../../test/sdk-wire.ts';
import { signInStaff } from '../../test/staff-session.ts';
import { assets } from '../../db/schema/sandbox.ts';

async function sdkCall(
  t: EngineTestApp,
  sdk: Sdk,
  user: TestApiUser,
  method: 'GET' | 'POST',
  url: string,
  body?: Record<string, unknown>,
) {
  const res = await t.app.request(url, sdkRequest(sdk, user, method, url, body));
  const text = await res.text();
  return { status: res.status, body: JSON.parse(text) as unknown, text };
}

describe('vaults through both provider SDKs', () => {
  for (const sdk of ['js', 'python'] as const) {
    engineTest(
      `${sdk}: creates a vault and approves it, reads detailed balances, refreshes, finds a deposit address`,
      async ({ t, f }) => {
        const user = await createTestApiUser(t, `${sdk} vault client`);
        const body =
          sdk === 'python'
            ? {
                vaultName: `${sdk} vault`,
                templateId: null,
                chains: ['ETHEREUM', 'BITCOIN'],
                testNetVault: null,
              }
            : { vaultName: `${sdk} vault`, templateId: 'tpl-1', chains: ['ETHEREUM', 'BITCOIN'] };
        const created = await sdkCall(t, sdk, user, 'POST', paths.vaults(), body);
        expect(created.status, created.text).toBe(200);
        const vault = Vault.parse(created.body);
        expect(vault).toMatchObject({ vaultName: `${sdk} vault`, vaultType: 'DEFAULT' });
        expect(vault.wallets?.map((w) => w.blockchain).sort()).toEqual(['BITCOIN', 'ETHEREUM']);

        // createVaultWithApproval: the same approval message and action as everything else.
        const messageUrl = `${paths.approvalMessage()}${toQueryString({ entityId: vault.id })}`;
        const message = ApprovalMessageResponse.parse(
          (await sdkCall(t, sdk, user, 'GET', messageUrl)).body,
        );
        const signature = signApprovalMessage(message.message, user.privateKeyHex);
        const decided = await sdkCall(
          t,
          sdk,
          user,
          'POST',
          paths.approvalAction(message.approvalId),
          {
            action: 'approve',
            signature,
          },
        );
        expect(decided.status, decided.text).toBe(200);

        // Detailed balances of a funded vault: balance × the reference price, to the cent.
        const detailed = await sdkCall(
          t,
          sdk,
          user,
          'GET',
          pathOf(getDetailedBalances, { vaultId: f.treasury.id }),
        );
        expect(detailed.status, detailed.text).toBe(200);
        const lines = DetailedBalanceList.parse(detailed.body);
        const prices = new Map(
          (await t.db.select().from(assets)).map((a) => [
            `${a.symbol}/${a.blockChain}`,
            a.usdPrice,
          ]),
        );
        for (const held of TREASURY_BALANCES) {
          const line = lines.find((l) => l.symbol === held.asset && l.chain === held.chain);
          const price = prices.get(`${held.asset}/${held.chain}`) ?? '0';
          expect(line, `${held.asset} on ${held.chain}`).toBeDefined();
          expect(cmp(line?.price ?? '', price)).toBe(0);
          expect(line?.balanceInUSD).toBe(round(mul(line?.balance ?? '0', price), 2));
        }
        expect(
          cmp(
            lines.reduce((s, l) => add(s, l.balanceInUSD ?? '0'), '0'),
            '0',
          ),
        ).toBe(1);

        // get_balances / getBalances: the same holdings as {ASSET: {CHAIN: "decimal"}}.
        const raw = await sdkCall(t, sdk, user, 'GET', paths.vaultBalances(f.treasury.id));
        expect(raw.status, raw.text).toBe(200);
        const balances = VaultBalances.parse(raw.body);
        for (const held of TREASURY_BALANCES) {
          const line = lines.find((l) => l.symbol === held.asset && l.chain === held.chain);
          expect(balances[held.asset]?.[held.chain], `${held.asset} on ${held.chain}`).toBe(
            line?.balance,
          );
        }

        const refreshed = await sdkCall(
          t,
          sdk,
          user,
          'POST',
          pathOf(updateBalances, { vaultId: f.treasury.id }),
        );
        expect(refreshed.status, refreshed.text).toBe(200);
        expect(VaultBalances.parse(refreshed.body).ETH?.ETHEREUM).toBeDefined();

        const deposit = await sdkCall(
          t,
          sdk,
          user,
          'GET',
          `${pathOf(getDepositAddress)}${toQueryString({ vaultId: vault.id, currency: 'BTC' })}`,
        );
        expect(deposit.status, deposit.text).toBe(200);
        const { addresses } = DepositAddressResponse.parse(deposit.body);
        expect(addresses).toEqual([
          expect.objectContaining({
            chain: 'BITCOIN',
            asset: 'BTC',
            address: vault.wallets?.find((w) => w.blockchain === 'BITCOIN')?.address,
          }),
        ]);
      },
    );
  }

  engineTest(
    'an unknown chain is refused naming the field; staff below admin cannot create vaults',
    async ({ t }) => {
      const user = await createTestApiUser(t, 'vault rules');
      const bad = await sdkCall(t, 'js', user, 'POST', paths.vaults(), {
        vaultName: 'Nowhere',
        chains: ['NOWHERE'],
      });
      expect(bad.status).toBe(400);
      expect(ApiErrorBody.parse(bad.body).fields?.[0]?.field).toBe('chains');
      const initiator = await signInStaff(t.app, t.db, t.authClock, { role: 'initiator' });
      const refused = await initiator.json(paths.vaults(), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ vaultName: 'Not mine to make' }),
      });
      expect(refused.status).toBe(403);
    },
  );
});

describe('get_deposit_address, as the Python SDK calls it', () => {
  const depositUrl = (query: Record<string, string>) =>
    `${pathOf(getDepositAddress)}${toQueryString(query)}`;

  engineTest(
    'answers an address for every asset the vault can hold, on each chain it has a wallet on, however the symbol is written',
    async ({ t, f }) => {
      const user = await createTestApiUser(t, 'deposit address client');
      const known = await t.db
        .select({ symbol: assets.symbol, chain: assets.blockChain })
        .from(assets);
      const vault = Vault.parse((await t.get(paths.vault(f.treasury.id))).body);
      const walletOn = new Map((vault.wallets ?? []).map((w) => [w.blockchain, w.address]));
      const symbols = [...new Set(known.map((a) => a.symbol))];
      expect(symbols.length).toBeGreaterThan(5);
      for (const symbol of symbols) {
        for (const written of [symbol, symbol.toLowerCase()]) {
          const res = await sdkCall(
            t,
            'python',
            user,
            'GET',
            depositUrl({ vaultId: f.treasury.id, currency: written }),
          );
          expect(res.status, `${written}: ${res.text}`).toBe(200);
          const { addresses } = DepositAddressResponse.parse(res.body);
          const chains = known.filter((a) => a.symbol === symbol).map((a) => a.chain);
          expect(addresses.map((a) => [a.asset, a.chain, a.address]).sort(), written).toEqual(
            chains.map((c) => [symbol, c, walletOn.get(c)]).sort(),
          );
        }
      }

      // Without a currency: every asset the vault can hold, each on its chain.
      const all = await sdkCall(t, 'python', user, 'GET', depositUrl({ vaultId: f.treasury.id }));
      expect(all.status, all.text).toBe(200);
      const listed = DepositAddressResponse.parse(all.body).addresses;
      expect(listed.map((a) => `${a.asset}@${a.chain}`).sort()).toEqual(
        known.map((a) => `${a.symbol}@${a.chain}`).sort(),
      );
      for (const a of listed) expect(a.address).toBe(walletOn.get(a.chain ?? ''));
    },
  );

  engineTest(
    'an asset the sandbox does not know, or one the vault has no wallet for, is refused naming currency',
    async ({ t, f }) => {
      const user = await createTestApiUser(t, 'deposit address refusals');
      const unknown = await sdkCall(
        t,
        'python',
        user,
        'GET',
        depositUrl({ vaultId: f.treasury.id, currency: 'DOGE' }),
      );
      expect(unknown.status, unknown.text).toBe(400);
      expect(ApiErrorBody.parse(unknown.body)).toMatchObject({
        code: 'VALIDATION_ERROR',
        fields: [{ field: 'currency' }],
      });

      const created = await sdkCall(t, 'python', user, 'POST', paths.vaults(), {
        vaultName: 'ethereum only',
        templateId: null,
        chains: ['ETHEREUM'],
        testNetVault: null,
      });
      expect(created.status, created.text).toBe(200);
      const ethOnly = Vault.parse(created.body);
      const btc = await sdkCall(
        t,
        'python',
        user,
        'GET',
        depositUrl({ vaultId: ethOnly.id ?? '', currency: 'BTC' }),
      );
      expect(btc.status, btc.text).toBe(400);
      expect(ApiErrorBody.parse(btc.body)).toMatchObject({ fields: [{ field: 'currency' }] });
      expect(ApiErrorBody.parse(btc.body).message).toContain('BITCOIN');
    },
  );
});
