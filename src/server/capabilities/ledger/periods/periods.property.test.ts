import { and, eq, lt, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cmp, sum } from '#contract/decimal.ts';
import { pathOf } from '#contract/endpoint.ts';
import { ledgerHistory, ledgerStatement } from '#contract/endpoints/ledger.ts';
import { listLedgerPeriods } from '#contract/endpoints/ledger-periods.ts';
import {
  LedgerHistoryResponse,
  LedgerStatementResponse,
  type LedgerStatementLine,
} from '#contract/ledger.ts';
import { LedgerPeriodList } from '#contract/ledger-periods.ts';
import { toQueryString } from '#contract/paths.ts';
import { recordOpeningBalances } from '../../../custody/sandbox/engine/movements.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import { ledgerMovements, transactions, vaultBalances } from '../../../db/schema/sandbox.ts';
import {
  createEngineFixture,
  createEngineTestApp,
  type EngineFixture,
  type EngineTestApp,
} from '../../../test/engine-test-app.ts';
import { createOrg } from '../../../test/fixtures.ts';
import {
  ledgerAction,
  ledgerRun,
  performLedgerAction,
  type LedgerAction,
  type LedgerRun,
} from '../../../test/ledger-activity.ts';
import { closeMonth } from '../../../test/ledger-periods.ts';
import { signInStaff } from '../../../test/staff-session.ts';
import { TestClock } from '../../../test/test-clock.ts';
import { createTestDatabase } from '../../../test/test-database.ts';
import { closingOn } from '../history.ts';
import { reconciles } from '../statement.ts';
import { monthBounds } from './month.ts';
import { statementFacts } from './store.ts';

/**
 * Random movements through the real sandbox on its test clock (the ledger's
 * every kind, test/ledger-activity.ts: transfers in and out with their fees,
 * reverts, declines, stuck transfers replaced, swaps, off-ramps, stakes and
 * their rewards; and opening balances recorded late), a month closed by two
 * admins, then more of them, many dated inside the closed month (a staking
 * reward for an epoch that ended in it and is paid only after the close, a
 * late opening balance): the closed month's statement of every vault is the same
 * bytes before and after, the organization's statement digest is the one
 * frozen, every statement reconciles to the last unit, and every day's
 * closing in the history is the ledger's balance (today's, the vault's).
 */

const DAY = 86_400_000;
const MONTH = '2030-05';
const { from: MONTH_FROM, to: MONTH_TO } = monthBounds(MONTH, 'UTC');

/** Funds the ledger had not seen, recorded now and dated `daysBack` days ago. */
type Late = { kind: 'late'; vault: number; amount: number; daysBack: number };
type Action = LedgerAction | Late;

const LATE_AMOUNTS = ['0.1', '0.75', '1.5'];

/** Mostly the ledger's every kind of activity; now and then an arrival dated back. */
const action: fc.Arbitrary<Action> = fc.oneof(
  { arbitrary: ledgerAction, weight: 4 },
  {
    arbitrary: fc.record({
      kind: fc.constant('late' as const),
      vault: fc.nat(1),
      amount: fc.nat(LATE_AMOUNTS.length - 1),
      daysBack: fc.integer({ min: 0, max: 20 }),
    }),
    weight: 1,
  },
);

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function perform(run: LedgerRun, a: Action): Promise<void> {
  if (a.kind !== 'late') return performLedgerAction(run, a);
  const { t, f } = run;
  const amount = LATE_AMOUNTS[a.amount] ?? '0.1';
  const vaultId = [f.treasury, f.ops][a.vault]?.id ?? '';
  // Funds the ledger had not seen, recorded now and dated up to 20 days back (inside the
  // closed month once it is), as a vault's opening balance is: the balance and its movement.
  await t.db
    .insert(vaultBalances)
    .values({ vaultId, asset: 'USDC', chain: 'ETHEREUM', amount, updatedAt: t.clock.now() })
    .onConflictDoUpdate({
      target: [vaultBalances.vaultId, vaultBalances.asset, vaultBalances.chain],
      set: { amount: sql`${vaultBalances.amount} + ${amount}::numeric` },
    });
  await recordOpeningBalances(t.db, t.orgId, [
    {
      vaultId,
      asset: 'USDC',
      chain: 'ETHEREUM',
      amount,
      at: new Date(t.clock.now().getTime() - a.daysBack * DAY - 1_000),
    },
  ]);
}

async function ledgerBalance(
  t: EngineTestApp,
  vaultId: string,
  asset: string,
  chain: string,
  end: Date,
) {
  const rows = await t.db
    .select({ amount: ledgerMovements.amount })
    .from(ledgerMovements)
    .where(
      and(
        eq(ledgerMovements.vaultId, vaultId),
        eq(ledgerMovements.asset, asset),
        eq(ledgerMovements.chain, chain),
        lt(ledgerMovements.at, end),
      ),
    );
  return sum(rows.map((r) => r.amount));
}

/** Every page of a vault's statement of [from, to): the pages' bytes, its lines and totals. */
async function statementOf(t: EngineTestApp, vaultId: string, from: Date, to: Date) {
  const pages: string[] = [];
  const lines: LedgerStatementLine[] = [];
  let totals: LedgerStatementResponse['totals'] | undefined;
  let cursor: string | null = null;
  do {
    const res = await t.app.request(
      `${pathOf(ledgerStatement)}${toQueryString({
        vaultId,
        from: from.toISOString(),
        to: to.toISOString(),
        limit: 5,
        ...(cursor ? { cursor } : {}),
      })}`,
    );
    const text = await res.text();
    expect(res.status, text).toBe(200);
    pages.push(text);
    const parsed = LedgerStatementResponse.parse(JSON.parse(text));
    lines.push(...parsed.results);
    totals = parsed.totals;
    cursor = parsed.nextCursor;
  } while (cursor);
  return { pages, lines, totals: totals ?? [] };
}

async function checkBooks(t: EngineTestApp, f: EngineFixture): Promise<void> {
  const now = new Date(t.clock.now().getTime() + 1);
  for (const vault of [f.treasury, f.ops]) {
    for (const [from, to] of [
      [MONTH_FROM, MONTH_TO],
      [MONTH_TO, now],
    ] as const) {
      const { lines, totals } = await statementOf(t, vault.id, from, to);
      expect(reconciles(totals, lines), JSON.stringify(totals)).toBe(true);
      for (const total of totals)
        expect(
          cmp(total.closing, await ledgerBalance(t, vault.id, total.asset, total.chain, to)),
          `${vault.id} ${total.asset} closing`,
        ).toBe(0);
    }
    const res = await t.get(
      `${pathOf(ledgerHistory)}${toQueryString({ days: '90', vaultId: vault.id })}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const history = LedgerHistoryResponse.parse(res.body);
    const first = Date.parse(`${history.from}T00:00:00Z`);
    for (const s of history.series)
      for (let i = 0; i < history.days; i += 1)
        expect(
          cmp(
            closingOn(s.units, i),
            await ledgerBalance(t, vault.id, s.asset, s.chain, new Date(first + (i + 1) * DAY)),
          ),
          `${vault.id} ${s.asset} day ${i}`,
        ).toBe(0);
    const balances = await t.db
      .select()
      .from(vaultBalances)
      .where(eq(vaultBalances.vaultId, vault.id));
    for (const b of balances) {
      const s = history.series.find((x) => x.asset === b.asset && x.chain === b.chain);
      expect(cmp(closingOn(s?.units ?? [], history.days - 1), b.amount), `${b.asset} today`).toBe(
        0,
      );
    }
  }
}

describe('closing a month (property)', () => {
  it('a closed month’s statements are the same bytes after any later activity, late arrivals included; every statement reconciles and every day’s closing is the balance', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(action, { minLength: 2, maxLength: 6 }),
        fc.array(action, { minLength: 2, maxLength: 6 }),
        fc.integer({ min: 0, max: 23 }),
        async (before, after, startHour) => {
          const orgId = (await createOrg(database.db)).id;
          const clock = new TestClock(new Date(Date.UTC(2030, 4, 22, startHour, 30)));
          const t = await createEngineTestApp({ database, orgId, clock });
          const f = await createEngineFixture(database.db, orgId);
          const run = await ledgerRun(t, f);
          for (const a of before) await perform(run, a);
          // Past the month's end, everything approved played out; then two admins close it.
          await t.run(Math.max(0, MONTH_TO.getTime() - t.clock.now().getTime()) + DAY);
          const proposer = await signInStaff(t.app, t.db, t.authClock, { role: 'admin' });
          const decider = await signInStaff(t.app, t.db, t.authClock, { role: 'admin' });
          await closeMonth(proposer, decider, MONTH);
          const frozen = await Promise.all(
            [f.treasury, f.ops].map((v) => statementOf(t, v.id, MONTH_FROM, MONTH_TO)),
          );
          for (const a of after) await perform(run, a);
          // Late, for certain: dated in the closed month, recorded after its close. How far back
          // that is depends on how long the activity after the close ran.
          const daysSinceClose = Math.floor((t.clock.now().getTime() - MONTH_TO.getTime()) / DAY);
          await perform(run, { kind: 'late', vault: 0, amount: 2, daysBack: daysSinceClose + 1 });
          await t.run(DAY);

          const again = await Promise.all(
            [f.treasury, f.ops].map((v) => statementOf(t, v.id, MONTH_FROM, MONTH_TO)),
          );
          expect(again.map((s) => s.pages)).toEqual(frozen.map((s) => s.pages));
          const listed = LedgerPeriodList.parse(
            (await proposer.json(pathOf(listLedgerPeriods))).body,
          );
          expect(listed.results).toMatchObject([{ month: MONTH, status: 'CLOSED' }]);
          const facts = await statementFacts(t.db, t.clock, {}, orgId, {
            from: MONTH_FROM,
            to: MONTH_TO,
          });
          expect(facts).toEqual({
            closings: listed.results[0]?.closings,
            digest: listed.results[0]?.digest,
          });
          const late = await t.db
            .select()
            .from(ledgerMovements)
            .where(and(eq(ledgerMovements.orgId, orgId), lt(ledgerMovements.valueAt, MONTH_TO)));
          expect(late.length).toBeGreaterThan(0);
          for (const m of late) expect(m.at.getTime()).toBe(MONTH_TO.getTime());
          await checkBooks(t, f);
        },
      ),
      {
        numRuns: 2,
        examples: [
          [
            [
              { kind: 'stake', amount: 1 },
              { kind: 'swap', amount: 1 },
              { kind: 'offRamp', amount: 0 },
              { kind: 'stuck', asset: 0, amount: 0 },
              { kind: 'revert', asset: 1, amount: 0 },
              { kind: 'decline', asset: 0, amount: 1 },
              { kind: 'out', asset: 0, amount: 0 },
            ],
            [
              // The stake's epochs that ended in the closed month are paid only now.
              { kind: 'advance', ms: DAY },
              { kind: 'between', asset: 1, amount: 1 },
              { kind: 'swap', amount: 0 },
              { kind: 'deposit', vault: 1, amount: 2 },
            ],
            9,
          ],
        ],
      },
    );
    // The example guarantees these, whatever the random runs drew: swaps, ramps, reverted and
    // replaced transfers before the close, and staking rewards of the closed month paid after it.
    const moved = await database.db
      .selectDistinct({ category: transactions.category, kind: ledgerMovements.kind })
      .from(ledgerMovements)
      .innerJoin(transactions, eq(transactions.id, ledgerMovements.transactionId));
    const seen = moved.map((m) => `${m.category} ${m.kind}`);
    for (const expected of ['TRANSFER AMOUNT', 'TRANSFER FEE', 'SWAP FEE', 'OFF_RAMP AMOUNT'])
      expect(seen, expected).toContain(expected);
    const lateRewards = await database.db
      .select({ id: ledgerMovements.id })
      .from(ledgerMovements)
      .where(and(eq(ledgerMovements.kind, 'REWARD'), lt(ledgerMovements.valueAt, MONTH_TO)))
      .limit(1);
    expect(lateRewards).toHaveLength(1);
  }, 600_000);
});
