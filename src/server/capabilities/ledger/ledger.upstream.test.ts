import { count } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { add, cmp, sub } from '#contract/decimal.ts';
import { pathOf } from '#contract/endpoint.ts';
import { passSandboxStakingEpochs } from '#contract/endpoints/sandbox-world.ts';
import { ledgerHistory } from '#contract/endpoints/ledger.ts';
import { LedgerHistoryResponse } from '#contract/ledger.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import { upstreamLedgerMovements } from '../../db/schema/console.ts';
import { createVault } from '../../test/fixtures.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import { twoConsolesTest, type TwoConsoles } from '../../test/two-consoles.ts';
import { closingOn } from './history.ts';
import { wholeStatement } from '../../test/ledger-statement.ts';
import { reconciles } from './statement.ts';

// Console A (upstream mode) rebuilds the ledger from console B's (the custody API's)
// transactions and balances: each day's closing equals what B held at that day's end, a
// statement reconciles, and a second read adds only what B did since.

// Two transactions a page, so a few of them make several pages.
const upstreamTest = twoConsolesTest({ ledgerSyncEveryMs: 0, ledgerPageSize: 2 });
const DAY = 86_400_000;

const historyUrl = (query: Record<string, string>) =>
  `${pathOf(ledgerHistory)}${toQueryString(query)}`;
/** A transfer on B, approved and run to its end on B's test clock. */
async function transferOnB(
  t: TwoConsoles,
  from: string,
  to: string,
  amount: string,
  externalId: string,
) {
  const res = await t.b.post(paths.transactions(), {
    category: 'TRANSFER',
    source: { type: 'VAULT', id: from },
    destination: { type: 'VAULT', id: to },
    amount,
    asset: 'ETH',
    blockChain: 'ETHEREUM',
    externalId,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = String(res.body.id);
  await t.b.approve(id);
  await t.b.run(3_600_000);
  expect(await t.b.status(id)).toBe('COMPLETED');
  return id;
}

const urlOf = (input: Parameters<typeof fetch>[0]) =>
  new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);

/** Every line of a statement, two a page, with its totals and whether it was reconstructed. */
async function statementOf(member: StaffSession, query: Record<string, string>) {
  const { lines, last } = await wholeStatement((url) => member.json(url), query, 2);
  return { lines, totals: last.totals, reconstructed: last.reconstructed };
}

describe('the ledger through an upstream console', () => {
  upstreamTest(
    'the history rebuilt from the custody API’s transactions closes each day at what it held then, fees included; a statement reconciles; a second read adds only what is new',
    async ({ t, admin }) => {
      // B's days are the real days just past, so A's "today" (the real one) follows them.
      const today = Date.UTC(
        new Date().getUTCFullYear(),
        new Date().getUTCMonth(),
        new Date().getUTCDate(),
      );
      t.b.clock.set(new Date(today - 4 * DAY + 9 * 3_600_000));
      const vault = await createVault(t.b.db, { orgId: t.b.orgId, vaultName: 'Upstream ledger' }, [
        { asset: 'ETH', chain: 'ETHEREUM', amount: '5' },
      ]);
      // What B holds at the end of each of its days: the truth A's history must match.
      const heldAt = new Map<string, string>();
      const steps = [
        { out: '0.5', in: null },
        { out: null, in: '1.25' },
        { out: '2', in: '0.75' },
      ];
      for (const [i, step] of steps.entries()) {
        t.b.clock.set(new Date(today - (3 - i) * DAY + 9 * 3_600_000));
        if (step.out) await transferOnB(t, vault.id, t.fixture.ops.id, step.out, `out-${i}`);
        if (step.in) await transferOnB(t, t.fixture.treasury.id, vault.id, step.in, `in-${i}`);
        const day = new Date(today - (3 - i) * DAY).toISOString().slice(0, 10);
        heldAt.set(day, (await t.b.balance(vault.id, 'ETH', 'ETHEREUM')).amount);
      }

      const res = await admin.json(historyUrl({ days: '7', vaultId: vault.id }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const history = LedgerHistoryResponse.parse(res.body);
      // Nothing is known before the oldest transaction: those days are left out, not zero.
      expect(history.reconstructed?.knownFrom.slice(0, 10)).toBe(
        new Date(today - 3 * DAY).toISOString().slice(0, 10),
      );
      expect(history.from).toBe(new Date(today - 3 * DAY).toISOString().slice(0, 10));
      expect(history.days).toBe(4);
      const eth = history.series.find((s) => s.asset === 'ETH' && s.chain === 'ETHEREUM');
      for (const [day, held] of heldAt) {
        const i = (Date.parse(`${day}T00:00:00Z`) - Date.parse(`${history.from}T00:00:00Z`)) / DAY;
        expect(closingOn(eth?.units ?? [], i), day).toBe(held);
      }
      const now = (await t.b.balance(vault.id, 'ETH', 'ETHEREUM')).amount;
      expect(closingOn(eth?.units ?? [], history.days - 1)).toBe(now);
      // Each out paid its fee: the history is not just the amounts moved.
      expect(cmp(now, '5.5')).toBe(-1);

      const period = {
        vaultId: vault.id,
        from: new Date(today - 5 * DAY).toISOString(),
        to: new Date(today + DAY).toISOString(),
      };
      const first = await statementOf(admin, period);
      expect(reconciles(first.totals, first.lines)).toBe(true);
      expect(first.totals).toEqual([
        expect.objectContaining({ asset: 'ETH', opening: '0', closing: now }),
      ]);
      expect(first.lines.map((l) => l.kind)).toEqual([
        'ADJUSTMENT',
        'AMOUNT',
        'FEE',
        'AMOUNT',
        'AMOUNT',
        'FEE',
        'AMOUNT',
      ]);
      // The opening balance worked back from today's: what the vault held before any transaction.
      expect(first.lines[0]).toMatchObject({ amount: '5', balanceAfter: '5' });
      expect(first.lines[1]).toMatchObject({
        amount: '-0.5',
        reference: 'out-0',
        counterparty: 'Operations',
      });
      expect(first.lines.at(-1)?.balanceAfter).toBe(now);

      const movements = async () =>
        (await t.aDatabase.db.select({ n: count() }).from(upstreamLedgerMovements))[0]?.n;
      const before = await movements();
      const listed: string[] = [];
      t.intercept = (send, input, init) => {
        const url =
          typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (new URL(url).pathname === paths.transactions()) listed.push(url);
        return send(input, init);
      };
      t.b.clock.set(new Date(today + 60_000));
      const later = await transferOnB(t, vault.id, t.fixture.ops.id, '0.25', 'out-later');
      const second = await statementOf(admin, period);
      t.intercept = null;
      expect(reconciles(second.totals, second.lines)).toBe(true);
      expect(second.lines.slice(0, first.lines.length)).toEqual(first.lines);
      expect(second.lines.slice(first.lines.length).map((l) => [l.kind, l.transactionId])).toEqual([
        ['AMOUNT', later],
        ['FEE', later],
      ]);
      expect(second.totals[0]?.closing).toBe(
        (await t.b.balance(vault.id, 'ETH', 'ETHEREUM')).amount,
      );
      // Its three movements written (the vault's out and fee, Operations' in), no adjustment:
      // every change was explained by a transaction, and none read before was written again.
      expect(await movements()).toBe((before ?? 0) + 3);
      // The list was read from the newest transaction seen before, not from the start.
      expect(listed.length).toBeGreaterThan(0);
      for (const url of listed) expect(new URL(url).searchParams.get('createdAtGte')).toBeTruthy();
    },
  );

  upstreamTest(
    'a staking reward the custody API lists no transaction for is booked as an adjustment when the balances show it, never hidden',
    async ({ t, admin }) => {
      const today = Date.UTC(
        new Date().getUTCFullYear(),
        new Date().getUTCMonth(),
        new Date().getUTCDate(),
      );
      t.b.clock.set(new Date(today - DAY + 10 * 3_600_000));
      const vault = await createVault(t.b.db, { orgId: t.b.orgId, vaultName: 'Upstream staker' }, [
        { asset: 'TRX', chain: 'TRON', amount: '60000' },
      ]);
      const stake = await t.b.post(paths.transactions(), {
        category: 'STAKE',
        source: { type: 'VAULT', id: vault.id },
        asset: 'TRX',
        blockChain: 'TRON',
        amount: '50000',
        resourceType: 'TRON_ENERGY',
      });
      expect(stake.status, JSON.stringify(stake.body)).toBe(200);
      await t.b.approve(String(stake.body.id));
      await t.b.run(3_600_000);
      expect(await t.b.status(String(stake.body.id))).toBe('COMPLETED');
      const url = `${pathOf(ledgerHistory)}${toQueryString({ days: '7', vaultId: vault.id })}`;
      expect((await admin.json(url)).status).toBe(200);

      // B pays two days' rewards: balance changes with no transaction on its list.
      const passed = await t.b.post(pathOf(passSandboxStakingEpochs, { vaultId: vault.id }), {
        chain: 'TRON',
        epochs: 2,
      });
      expect(passed.status, JSON.stringify(passed.body)).toBe(200);
      const rewards = (passed.body.rewards as { amount: string }[]).reduce(
        (total, r) => add(total, r.amount),
        '0',
      );
      expect(cmp(rewards, '0')).toBe(1);
      const held = (await t.b.balance(vault.id, 'TRX', 'TRON')).amount;

      const history = LedgerHistoryResponse.parse((await admin.json(url)).body);
      const trx = history.series.find((s) => s.asset === 'TRX');
      expect(closingOn(trx?.units ?? [], history.days - 1)).toBe(held);
      const { lines, totals } = await statementOf(admin, {
        vaultId: vault.id,
        from: new Date(today - 3 * DAY).toISOString(),
        to: new Date(today + DAY).toISOString(),
      });
      expect(reconciles(totals, lines)).toBe(true);
      const last = lines.at(-1);
      expect(last).toMatchObject({
        kind: 'ADJUSTMENT',
        amount: rewards,
        balanceAfter: held,
        transactionId: null,
        memo: expect.stringContaining('beyond the transactions it lists') as unknown,
      });
      expect(sub(held, last?.amount ?? '0')).toBe(lines.at(-2)?.balanceAfter);
    },
  );

  upstreamTest(
    'a sync cut short mid-list is refused rather than shown half done, and the next read goes on from its next page: every movement once, the statement reconciled',
    async ({ t, admin }) => {
      const today = Date.UTC(
        new Date().getUTCFullYear(),
        new Date().getUTCMonth(),
        new Date().getUTCDate(),
      );
      // After every transaction the file's other tests made: created after A's frontier, as
      // new transactions are.
      t.b.clock.set(new Date(today + 2 * 3_600_000));
      const vault = await createVault(t.b.db, { orgId: t.b.orgId, vaultName: 'Upstream resumed' }, [
        { asset: 'ETH', chain: 'ETHEREUM', amount: '10' },
      ]);
      const history = historyUrl({ days: '7', vaultId: vault.id });
      expect((await admin.json(history)).status).toBe(200);
      for (let i = 0; i < 5; i += 1)
        await transferOnB(t, vault.id, t.fixture.ops.id, '0.1', `resume-${i}`);

      // The list's first page answers; every later one fails, however often it is asked.
      const asked: URL[] = [];
      t.intercept = (send, input, init) => {
        const url = urlOf(input);
        if (url.pathname !== paths.transactions()) return send(input, init);
        asked.push(url);
        if (asked.length === 1) return send(input, init);
        return Promise.resolve(Response.json({ message: 'down for a moment' }, { status: 503 }));
      };
      const cut = await admin.json(history);
      expect(cut.status, JSON.stringify(cut.body)).toBe(502);
      const next = asked[1]?.searchParams.get('cursor');
      expect(next).toBeTruthy();

      asked.length = 0;
      t.intercept = (send, input, init) => {
        const url = urlOf(input);
        if (url.pathname === paths.transactions()) asked.push(url);
        return send(input, init);
      };
      const { lines, totals } = await statementOf(admin, {
        vaultId: vault.id,
        from: new Date(today - 3 * DAY).toISOString(),
        to: new Date(today + DAY).toISOString(),
      });
      t.intercept = null;
      // The first read after goes on from the page that failed.
      expect(asked[0]?.searchParams.get('cursor')).toBe(next);
      expect(reconciles(totals, lines)).toBe(true);
      expect(totals[0]?.closing).toBe((await t.b.balance(vault.id, 'ETH', 'ETHEREUM')).amount);
      const outs = lines.filter((l) => l.reference?.startsWith('resume-'));
      expect(outs.map((l) => [l.reference, l.kind]).sort()).toEqual(
        [0, 1, 2, 3, 4].flatMap((i) => [
          [`resume-${i}`, 'AMOUNT'],
          [`resume-${i}`, 'FEE'],
        ]),
      );
      expect(lines.filter((l) => l.kind === 'ADJUSTMENT')).toHaveLength(1);
    },
  );
});
