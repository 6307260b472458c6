import { describe, expect } from 'vitest';
import { ApiErrorBody } from '#contract/common.ts';
import { pathOf, toQueryString } from '#contract/endpoint.ts';
import { overview, vaultHoldings } from '#contract/endpoints/overview.ts';
import { getDetailedBalances } from '#contract/endpoints/vaults.ts';
import { add, cmp, mul, round, sub } from '#contract/decimal.ts';
import { OverviewResponse, VaultHoldingsResponse } from '#contract/overview.ts';
import { paths } from '#contract/paths.ts';
import { VaultListResponse } from '#contract/reference.ts';
import { Transaction } from '#contract/transaction.ts';
import { DetailedBalanceList } from '#contract/vault.ts';
import { engineTest } from '../../test/engine-test.ts';
import type { EngineTestApp } from '../../test/engine-test-app.ts';
import { createSubOrg, createTransaction, createVault } from '../../test/fixtures.ts';
import { signInStaff } from '../../test/staff-session.ts';

// The overview through the real app on a real database: its figures against
// the custody API's own reads (detailed_balances, the vault list), and the
// member's sub-organization scope.

type Get = (url: string) => Promise<{ status: number; body: unknown }>;
const asAdmin = (t: EngineTestApp): Get => t.get;

const overviewUrl = (query: Record<string, string | undefined> = {}) =>
  `${pathOf(overview)}${toQueryString(query)}`;

async function readOverview(get: Get, query: Record<string, string | undefined> = {}) {
  const res = await get(overviewUrl(query));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return OverviewResponse.parse(res.body);
}

/**
 * What the custody API says the same vaults hold: every vault listed, its
 * detailed balances, each line's value checked as balance × price to the
 * cent; summed by vault, asset and chain.
 */
async function fromTheApi(get: Get, subOrgId?: string) {
  const listed = await get(`${paths.vaults()}${toQueryString({ limit: 100, subOrgId })}`);
  const vaults = VaultListResponse.parse(listed.body).results;
  const byVault = new Map<string, string>();
  const byAsset = new Map<string, { balance: string; usd: string }>();
  const byChain = new Map<string, string>();
  let total = '0';
  for (const vault of vaults) {
    const res = await get(pathOf(getDetailedBalances, { vaultId: vault.id ?? '' }));
    expect(res.status).toBe(200);
    let vaultTotal = '0';
    for (const line of DetailedBalanceList.parse(res.body)) {
      if (!line.balanceInUSD || !line.price) continue;
      expect(line.balanceInUSD).toBe(round(mul(line.balance, line.price), 2));
      vaultTotal = add(vaultTotal, line.balanceInUSD);
      const asset = byAsset.get(line.symbol) ?? { balance: '0', usd: '0' };
      byAsset.set(line.symbol, {
        balance: add(asset.balance, line.balance),
        usd: add(asset.usd, line.balanceInUSD),
      });
      byChain.set(line.chain ?? '', add(byChain.get(line.chain ?? '') ?? '0', line.balanceInUSD));
    }
    byVault.set(vault.id ?? '', vaultTotal);
    total = add(total, vaultTotal);
  }
  return { total, byVault, byAsset, byChain, vaultIds: vaults.map((v) => v.id) };
}

function expectSameFigures(seen: OverviewResponse, api: Awaited<ReturnType<typeof fromTheApi>>) {
  expect(cmp(seen.totalUsd, api.total)).toBe(0);
  expect(seen.byVault.map((v) => v.id).sort()).toEqual([...api.vaultIds].sort());
  for (const vault of seen.byVault) expect(cmp(vault.usd, api.byVault.get(vault.id) ?? '')).toBe(0);
  for (const asset of seen.byAsset) {
    const expected = api.byAsset.get(asset.symbol);
    expect(cmp(asset.usd, expected?.usd ?? '')).toBe(0);
    expect(cmp(asset.balance, expected?.balance ?? '')).toBe(0);
  }
  for (const chain of seen.byChain)
    expect(cmp(chain.usd, api.byChain.get(chain.chain) ?? '')).toBe(0);
}

describe('GET /api/console/overview/', () => {
  engineTest(
    'holdings equal the sum of every vault’s detailed balances times the prices they used',
    async ({ t, f: _vaults }) => {
      const seen = await readOverview(asAdmin(t), { timeZone: 'Europe/Berlin' });
      expect(seen.priceSource).toBe('SANDBOX_REFERENCE');
      expect(Number.isNaN(Date.parse(seen.pricedAt))).toBe(false);
      expect(cmp(seen.totalUsd, '0')).toBe(1);
      expectSameFigures(seen, await fromTheApi(asAdmin(t)));
      // Shares are of the whole: the assets' add up to 100 % within their rounding.
      const shares = seen.byAsset.reduce((s, a) => add(s, a.share), '0');
      expect(cmp(sub(shares, '100').replace('-', ''), '0.05')).toBe(-1);
      expect(seen.outflowByDay).toHaveLength(30);
      expect(seen.timeZone).toBe('Europe/Berlin');
      // An admin decides: the inbox's counts are theirs to see.
      expect(seen.waiting).not.toBeNull();
    },
  );

  engineTest(
    'a transfer moves the figures: in flight while it runs, out of the holdings when it completes',
    async ({ t, f }) => {
      const before = await readOverview(asAdmin(t));
      const created = await t.post(paths.transactions(), {
        category: 'TRANSFER',
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'CONTACT', id: f.contacts.eth.id },
        amount: '1.5',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const id = Transaction.parse(created.body).id ?? '';
      const pending = await readOverview(asAdmin(t));
      expect(pending.inFlight.count).toBe(before.inFlight.count + 1);
      expect(pending.inFlight.byStatus.find((s) => s.status === 'PENDING')?.count).toBe(
        (before.inFlight.byStatus.find((s) => s.status === 'PENDING')?.count ?? 0) + 1,
      );
      // The admin proposed it: another member decides, and it waits on them since it was made.
      const approver = await signInStaff(t.app, t.db, t.authClock, { role: 'approver' });
      const waiting = (await readOverview(approver.json)).waiting;
      expect(waiting?.actionableCount).toBeGreaterThanOrEqual(1);
      expect(waiting?.oldestAt).toBe(Transaction.parse(created.body).createdAt);
      expect(pending.waiting?.totalCount).toBe((before.waiting?.totalCount ?? 0) + 1);

      expect(await t.approve(id)).toBe(true);
      for (let i = 0; i < 20 && (await t.status(id)) !== 'COMPLETED'; i += 1)
        await t.run(10 * 60_000);
      expect(await t.status(id)).toBe('COMPLETED');

      const after = await readOverview(asAdmin(t));
      expect(after.inFlight.count).toBe(before.inFlight.count);
      const eth = (o: OverviewResponse) => o.byAsset.find((a) => a.symbol === 'ETH');
      // 1.5 ETH and its network fee left the treasury.
      const fee = Transaction.parse((await t.get(paths.transaction(id))).body).fees?.amount ?? '0';
      expect(
        cmp(sub(eth(before)?.balance ?? '0', eth(after)?.balance ?? '0'), add('1.5', fee)),
      ).toBe(0);
      expect(cmp(after.totalUsd, before.totalUsd)).toBe(-1);
      expectSameFigures(after, await fromTheApi(asAdmin(t)));
    },
  );

  engineTest(
    'flows: out of and into the scope’s vaults by when they completed; moves between them are neither',
    async ({ t, f: _vaults }) => {
      // A sub-organization of its own, so no other test's transactions count here.
      const sub = await createSubOrg(t.db, t.orgId, 'Flows');
      const ours = await createVault(t.db, {
        orgId: t.orgId,
        subOrgId: sub.id,
        vaultName: 'Flows A',
      });
      const other = await createVault(t.db, {
        orgId: t.orgId,
        subOrgId: sub.id,
        vaultName: 'Flows B',
      });
      const hoursAgo = (h: number) => new Date(Date.now() - h * 60 * 60 * 1000);
      const vault = (id: string) => ({ type: 'VAULT' as const, id });
      const outside = { type: 'EXTERNAL_ADDRESS' as const, id: '0xabc', address: '0xabc' };
      const completed = (
        at: Date,
        source: object,
        destination: object,
        amountInUsd: string | null,
        transactionType: 'INCOMING' | 'OUTGOING' = 'OUTGOING',
      ) =>
        createTransaction(t.db, {
          orgId: t.orgId,
          subOrgId: sub.id,
          vaultId: ours.id,
          transactionType,
          source: source as never,
          destination: destination as never,
          amountInUsd,
          createdAt: at,
          updatedAt: at,
        });
      await completed(hoursAgo(2), vault(ours.id), outside, '100.25');
      await completed(hoursAgo(5), vault(ours.id), outside, null);
      await completed(hoursAgo(3), outside, vault(ours.id), '40', 'INCOMING');
      await completed(hoursAgo(1), vault(ours.id), vault(other.id), '999');
      const threeDays = hoursAgo(72);
      await completed(threeDays, vault(ours.id), outside, '25');
      await createTransaction(t.db, {
        orgId: t.orgId,
        subOrgId: sub.id,
        vaultId: ours.id,
        status: 'SUBMITTED',
        source: vault(ours.id) as never,
        destination: outside as never,
        amountInUsd: '7',
      });

      const zone = 'America/Los_Angeles';
      const seen = await readOverview(asAdmin(t), { subOrgId: sub.id, timeZone: zone });
      expect(seen.lastDay.outflow).toEqual({ usd: '100.25', count: 2, unpriced: 1 });
      expect(seen.lastDay.inflow).toEqual({ usd: '40', count: 1, unpriced: 0 });
      expect(seen.inFlight.count).toBe(1);
      expect(seen.inFlight.byStatus.find((s) => s.status === 'SUBMITTED')?.count).toBe(1);
      expect(seen.transactionsComplete).toBe(true);

      const dayOf = (at: Date) => at.toLocaleDateString('en-CA', { timeZone: zone });
      const byDay = new Map(seen.outflowByDay.map((d) => [d.day, d]));
      expect(seen.outflowByDay.at(-1)?.day).toBe(dayOf(new Date()));
      expect(byDay.get(dayOf(threeDays))).toMatchObject({ usd: '25', count: 1 });
      const total = seen.outflowByDay.reduce((s, d) => add(s, d.usd), '0');
      expect(total).toBe('125.25');
      // The largest day is the chart's whole bar.
      expect(seen.outflowByDay.some((d) => d.share === '100.00')).toBe(true);
    },
  );

  engineTest(
    'slow: the transfers on the chain past their fee tier’s usual time, the latest to become so first',
    async ({ t, f: _vaults }) => {
      // A sub-organization of its own, so no other test's transactions count here.
      const sub = await createSubOrg(t.db, t.orgId, 'Slow');
      const vault = await createVault(t.db, { orgId: t.orgId, subOrgId: sub.id });
      const minutesBefore = (m: number) => new Date(t.clock.now().getTime() - m * 60_000);
      const onChain = (
        status: 'SUBMITTED' | 'WAITING_CONFIRMATION',
        since: Date,
        feeTier: 'LOW' | 'HIGH',
      ) =>
        createTransaction(t.db, {
          orgId: t.orgId,
          subOrgId: sub.id,
          vaultId: vault.id,
          status,
          feeTier,
          createdAt: since,
          updatedAt: since,
        });
      // ETHEREUM LOW from SUBMITTED: 2 × (3 + 12 blocks of 12 s) + 60 s = 7 minutes at scale 1.
      const longest = await onChain('SUBMITTED', minutesBefore(40), 'LOW');
      const later = await onChain('WAITING_CONFIRMATION', minutesBefore(20), 'HIGH');
      await onChain('SUBMITTED', minutesBefore(2), 'LOW');
      await createTransaction(t.db, {
        orgId: t.orgId,
        subOrgId: sub.id,
        vaultId: vault.id,
        status: 'COMPLETED',
        feeTier: 'LOW',
        updatedAt: minutesBefore(60),
      });

      const seen = await readOverview(asAdmin(t), { subOrgId: sub.id });
      expect(seen.inFlight.count).toBe(3);
      expect(seen.slow.count).toBe(2);
      expect(seen.slow.transactions.map((tx) => [tx.id, tx.status, tx.feeTier])).toEqual([
        [later.id, 'WAITING_CONFIRMATION', 'HIGH'],
        [longest.id, 'SUBMITTED', 'LOW'],
      ]);
      expect(seen.slow.transactions[1]).toMatchObject({
        asset: 'ETH',
        amount: '1.5',
        blockChain: 'ETHEREUM',
        slowAfter: new Date(minutesBefore(40).getTime() + 7 * 60_000).toISOString(),
      });
    },
  );

  engineTest(
    'a restricted member sees their sub-organizations’ vaults and totals alone',
    async ({ t, f: _vaults }) => {
      const mine = await createSubOrg(t.db, t.orgId, 'Mine');
      const theirs = await createSubOrg(t.db, t.orgId, 'Theirs');
      const held = [{ asset: 'ETH', chain: 'ETHEREUM', amount: '2' }];
      const myVault = await createVault(
        t.db,
        { orgId: t.orgId, subOrgId: mine.id, vaultName: 'Mine 1' },
        held,
      );
      await createVault(t.db, { orgId: t.orgId, subOrgId: theirs.id, vaultName: 'Theirs 1' }, [
        { asset: 'BTC', chain: 'BITCOIN', amount: '1' },
      ]);
      // On their way: one of theirs on the chain long past its usual time, one of mine waiting.
      const hourAgo = new Date(t.clock.now().getTime() - 60 * 60_000);
      await createTransaction(t.db, {
        orgId: t.orgId,
        subOrgId: theirs.id,
        status: 'SUBMITTED',
        createdAt: hourAgo,
        updatedAt: hourAgo,
      });
      await createTransaction(t.db, {
        orgId: t.orgId,
        subOrgId: mine.id,
        vaultId: myVault.id,
        status: 'PENDING',
      });
      // Two sub-organizations, one of them empty: the scope is a list, not one id.
      const alsoMine = await createSubOrg(t.db, t.orgId, 'Also mine');
      const member = await signInStaff(t.app, t.db, t.authClock, {
        role: 'initiator',
        subOrgIds: [mine.id, alsoMine.id],
      });
      const seen = await readOverview(member.json);
      expect(seen.byVault.map((v) => v.id)).toEqual([myVault.id]);
      expect(seen.inFlight.count).toBe(1);
      expect(seen.inFlight.byStatus.find((s) => s.status === 'PENDING')?.count).toBe(1);
      expect(seen.slow.count).toBe(0);
      expect(seen.byAsset.map((a) => a.symbol)).toEqual(['ETH']);
      expectSameFigures(seen, await fromTheApi(member.json));
      // What the admin reads of that sub-organization is the same.
      expect((await readOverview(asAdmin(t), { subOrgId: mine.id })).totalUsd).toBe(seen.totalUsd);
      // An initiator decides nothing: no inbox figures.
      expect(seen.waiting).toBeNull();

      const outside = await member.json(overviewUrl({ subOrgId: theirs.id }));
      expect(outside.status).toBe(404);
      const list = await member.json(`${pathOf(vaultHoldings)}`);
      expect(VaultHoldingsResponse.parse(list.body).vaults.map((v) => v.id)).toEqual([myVault.id]);
    },
  );

  engineTest('a time zone the server does not know is refused naming the field', async ({ t }) => {
    for (const timeZone of ['Mars/Olympus', '+05:30']) {
      const res = await t.get(overviewUrl({ timeZone }));
      expect(res.status).toBe(400);
      expect(ApiErrorBody.parse(res.body).fields?.[0]?.field).toBe('timeZone');
    }
  });
});

describe('GET /api/console/vaults/', () => {
  engineTest(
    'every vault with its type, sub-organization, chains and holdings, valued as detailed_balances values them',
    async ({ t, f }) => {
      const res = await t.get(pathOf(vaultHoldings));
      expect(res.status).toBe(200);
      const list = VaultHoldingsResponse.parse(res.body);
      const api = await fromTheApi(asAdmin(t));
      expect(cmp(list.totalUsd, api.total)).toBe(0);
      const gas = list.vaults.find((v) => v.id === f.gas.id);
      expect(gas).toMatchObject({ name: 'Gas', vaultType: 'GAS', subOrgId: null });
      expect(gas?.chains).toContain('SOLANA');
      for (const vault of list.vaults)
        expect(cmp(vault.usd, api.byVault.get(vault.id) ?? '')).toBe(0);
      const names = list.vaults.map((v) => v.name);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    },
  );
});
