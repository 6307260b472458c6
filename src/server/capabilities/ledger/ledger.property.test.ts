import { and, eq, lt } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cmp, sum } from '#contract/decimal.ts';
import { pathOf } from '#contract/endpoint.ts';
import { ledgerHistory, ledgerStatement } from '#contract/endpoints/ledger.ts';
import {
  LedgerHistoryResponse,
  LedgerStatementResponse,
  type LedgerStatementLine,
} from '#contract/ledger.ts';
import { toQueryString } from '#contract/paths.ts';
import { payStakingRewards } from '../../custody/sandbox/engine/staking-rewards.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import {
  ledgerDays,
  ledgerMovements,
  transactions,
  vaultBalances,
} from '../../db/schema/sandbox.ts';
import {
  createEngineFixture,
  createEngineTestApp,
  type EngineTestApp,
} from '../../test/engine-test-app.ts';
import { createOrg } from '../../test/fixtures.ts';
import {
  ledgerAction,
  ledgerRun,
  performLedgerAction,
  type LedgerRun,
} from '../../test/ledger-activity.ts';
import { TestClock } from '../../test/test-clock.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { closingOn } from './history.ts';
import { reconciles } from './statement.ts';

/**
 * Random movements driven through the real sandbox on its test clock —
 * transfers out and between vaults (amount and fee), deposits in, reverts
 * (a fee alone), declines, stuck transfers replaced, swaps (a provider's
 * fee) and off-ramps, stakes and unstakes earning staking rewards, over
 * several days — and then, for every vault and
 * day, the history's closing balance is the ledger's (the sum of its
 * movements up to that day's end), today's is the vault's balance, the
 * statement of the whole period reconciles to the last unit, and the daily
 * summary the history and statements read is exactly its movements summed.
 */

const DAY = 86_400_000;

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

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

/**
 * The daily summary is its movements summed: for every vault, asset, chain
 * and UTC day that has movements, one row with their non-fee amounts, their
 * fees, their count, and the closing balance at the day's end; no row for a
 * day without any.
 */
async function summaryIsItsMovements(t: EngineTestApp, vaultId: string): Promise<void> {
  const movements = await t.db
    .select()
    .from(ledgerMovements)
    .where(eq(ledgerMovements.vaultId, vaultId));
  const expected = new Map<string, { amounts: string[]; fees: string[]; count: number }>();
  for (const m of movements) {
    const key = `${m.asset} ${m.chain} ${m.at.toISOString().slice(0, 10)}`;
    const e = expected.get(key) ?? { amounts: [], fees: [], count: 0 };
    if (m.kind === 'FEE') e.fees.push(m.amount.replace(/^-/, ''));
    else e.amounts.push(m.amount);
    e.count += 1;
    expected.set(key, e);
  }
  const days = await t.db.select().from(ledgerDays).where(eq(ledgerDays.vaultId, vaultId));
  expect(days.map((d) => `${d.asset} ${d.chain} ${d.day}`).sort()).toEqual(
    [...expected.keys()].sort(),
  );
  for (const d of days) {
    const key = `${d.asset} ${d.chain} ${d.day}`;
    const e = expected.get(key);
    expect(cmp(d.amounts, sum(e?.amounts ?? [])), `${key} amounts`).toBe(0);
    expect(cmp(d.fees, sum(e?.fees ?? [])), `${key} fees`).toBe(0);
    expect(d.movements, `${key} count`).toBe(e?.count);
    const dayEnd = new Date(Date.parse(`${d.day}T00:00:00Z`) + DAY);
    expect(
      cmp(d.closing, await ledgerBalance(t, vaultId, d.asset, d.chain, dayEnd)),
      `${key} closing`,
    ).toBe(0);
  }
}

async function check(run: LedgerRun, start: Date): Promise<void> {
  const { t, f } = run;
  for (const vault of [f.treasury, f.ops]) {
    await summaryIsItsMovements(t, vault.id);
    const res = await t.get(
      `${pathOf(ledgerHistory)}${toQueryString({ days: '30', vaultId: vault.id })}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const history = LedgerHistoryResponse.parse(res.body);
    const first = Date.parse(`${history.from}T00:00:00Z`);
    for (const s of history.series)
      for (let i = 0; i < history.days; i += 1) {
        const end = new Date(first + (i + 1) * DAY);
        expect(
          cmp(closingOn(s.units, i), await ledgerBalance(t, vault.id, s.asset, s.chain, end)),
          `${vault.id} ${s.asset} day ${i}`,
        ).toBe(0);
      }
    // Today's closing is the balance the vault holds.
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

    const to = new Date(t.clock.now().getTime() + 1);
    const lines: LedgerStatementLine[] = [];
    let totals: LedgerStatementResponse['totals'] | undefined;
    let cursor: string | null = null;
    do {
      const page = await t.get(
        `${pathOf(ledgerStatement)}${toQueryString({
          vaultId: vault.id,
          from: new Date(start.getTime() + 1).toISOString(),
          to: to.toISOString(),
          limit: 7,
          ...(cursor ? { cursor } : {}),
        })}`,
      );
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      const parsed = LedgerStatementResponse.parse(page.body);
      lines.push(...parsed.results);
      totals = parsed.totals;
      cursor = parsed.nextCursor;
    } while (cursor);
    expect(reconciles(totals ?? [], lines), JSON.stringify(totals)).toBe(true);
    for (const total of totals ?? [])
      expect(
        cmp(total.closing, await ledgerBalance(t, vault.id, total.asset, total.chain, to)),
        `${total.asset} closing`,
      ).toBe(0);
  }
}

describe('the ledger (property)', () => {
  it('for random movements over days, each day’s closing is the ledger’s balance, the daily summary is its movements summed, and every statement reconciles', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(ledgerAction, { minLength: 3, maxLength: 7 }),
        fc.integer({ min: 0, max: 23 }),
        async (actions, startHour) => {
          const orgId = (await createOrg(database.db)).id;
          const clock = new TestClock(new Date(Date.UTC(2030, 4, 10, startHour, 30)));
          const start = clock.now();
          const t = await createEngineTestApp({ database, orgId, clock });
          const f = await createEngineFixture(database.db, orgId);
          const run = await ledgerRun(t, f);
          for (const a of actions) await performLedgerAction(run, a);
          // Everything approved plays out, over the next days.
          for (let i = 0; i < 6; i += 1) {
            await t.run(DAY / 2);
            await payStakingRewards(t.db, t.clock.now());
          }
          await check(run, start);
        },
      ),
      {
        numRuns: 3,
        examples: [
          [
            [
              { kind: 'out', asset: 0, amount: 1 },
              { kind: 'stake', amount: 1 },
              { kind: 'advance', ms: DAY },
              { kind: 'swap', amount: 2 },
              { kind: 'offRamp', amount: 1 },
              { kind: 'stuck', asset: 0, amount: 0 },
              { kind: 'revert', asset: 1, amount: 0 },
              { kind: 'deposit', vault: 1, amount: 3 },
              { kind: 'decline', asset: 0, amount: 2 },
            ],
            5,
          ],
        ],
      },
    );
    // The example guarantees these moved balances whatever the random runs drew.
    const moved = await database.db
      .selectDistinct({ category: transactions.category, kind: ledgerMovements.kind })
      .from(ledgerMovements)
      .innerJoin(transactions, eq(transactions.id, ledgerMovements.transactionId));
    const seen = moved.map((m) => `${m.category} ${m.kind}`);
    // And the stake earned: rewards are movements of no transaction.
    const rewards = await database.db
      .select({ id: ledgerMovements.id })
      .from(ledgerMovements)
      .where(eq(ledgerMovements.kind, 'REWARD'))
      .limit(1);
    expect(rewards).toHaveLength(1);
    for (const expected of ['TRANSFER AMOUNT', 'TRANSFER FEE', 'SWAP FEE', 'OFF_RAMP AMOUNT'])
      expect(seen, expected).toContain(expected);
  }, 600_000);
});
