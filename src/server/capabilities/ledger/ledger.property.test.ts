import { and, eq, lt } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cmp, sum } from '#contract/decimal.ts';
import { pathOf } from '#contract/endpoint.ts';
import { ledgerHistory, ledgerStatement } from '#contract/endpoints/ledger.ts';
import { depositToSandboxVault } from '#contract/endpoints/sandbox-world.ts';
import {
  LedgerHistoryResponse,
  LedgerStatementResponse,
  type LedgerStatementLine,
} from '#contract/ledger.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import { GetTradeQuoteResponse } from '#contract/trades.ts';
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
  type EngineFixture,
  type EngineTestApp,
} from '../../test/engine-test-app.ts';
import { createBankAccount, createOrg } from '../../test/fixtures.ts';
import { bestQuote, INTENT_CREATE_PATH, QUOTE_PATH } from '../../test/ramp-fixtures.ts';
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

type Action =
  | { kind: 'out' | 'between' | 'revert' | 'decline' | 'stuck'; asset: number; amount: number }
  | { kind: 'deposit'; vault: number; amount: number }
  | { kind: 'swap' | 'offRamp' | 'stake' | 'unstake'; amount: number }
  | { kind: 'advance'; ms: number };

const AMOUNTS = ['0.1', '0.75', '1.5', '3'];
/** A ramp or swap takes at least 10 USDC. */
const TRADE_AMOUNTS = ['12', '40', '75', '150'];
const ASSETS = [
  { asset: 'ETH', chain: 'ETHEREUM' },
  { asset: 'USDC', chain: 'ETHEREUM' },
];

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    kind: fc.constantFrom('out' as const, 'between' as const, 'revert' as const),
    asset: fc.nat(ASSETS.length - 1),
    amount: fc.nat(AMOUNTS.length - 1),
  }),
  fc.record({
    kind: fc.constantFrom('decline' as const, 'stuck' as const),
    asset: fc.constant(0),
    amount: fc.nat(AMOUNTS.length - 1),
  }),
  fc.record({
    kind: fc.constant('deposit' as const),
    vault: fc.nat(1),
    amount: fc.nat(AMOUNTS.length - 1),
  }),
  fc.record({
    kind: fc.constantFrom('swap' as const, 'offRamp' as const),
    amount: fc.nat(AMOUNTS.length - 1),
  }),
  fc.record({
    kind: fc.constantFrom('stake' as const, 'unstake' as const),
    amount: fc.nat(AMOUNTS.length - 1),
  }),
  fc.record({
    kind: fc.constant('advance' as const),
    ms: fc.constantFrom(60_000, 3_600_000, DAY, 2 * DAY + 7_000),
  }),
);

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

interface Run {
  t: EngineTestApp;
  f: EngineFixture;
  bankAccountId: string;
  stuck: string[];
}

function ok(res: { status: number; body: Record<string, unknown> }): string | undefined {
  // Refusals are expected (not enough left, a quote gone); a 5xx never is.
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
  return res.status === 200 || res.status === 201 ? String(res.body.id) : undefined;
}

async function perform(run: Run, a: Action): Promise<void> {
  const { t, f } = run;
  const amount = AMOUNTS[a.kind === 'advance' ? 0 : a.amount] ?? '0.1';
  const transfer = (assetIndex: number, over: Record<string, unknown>) => {
    const spec = ASSETS[assetIndex] ?? { asset: 'ETH', chain: 'ETHEREUM' };
    return {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'VAULT', id: f.ops.id },
      amount,
      asset: spec.asset,
      blockChain: spec.chain,
      ...over,
    };
  };
  const createApproved = async (body: unknown) => {
    const id = ok(await t.post(paths.transactions(), body));
    if (id) await t.approve(id);
    return id;
  };
  switch (a.kind) {
    case 'out':
      await createApproved(
        transfer(a.asset, { destination: { type: 'CONTACT', id: f.contacts.eth.id } }),
      );
      return;
    case 'between':
      await createApproved(transfer(a.asset, {}));
      return;
    case 'revert':
      await createApproved(transfer(a.asset, { memo: '[simulate:revert]' }));
      return;
    case 'decline': {
      const id = ok(await t.post(paths.transactions(), transfer(0, {})));
      if (id) await t.decline(id, 'property test');
      return;
    }
    case 'stuck': {
      const id = await createApproved(
        transfer(0, { gasParams: { feeTier: 'LOW' }, memo: '[simulate:stuck]' }),
      );
      await t.run(10_000);
      if (id && (await t.status(id)) === 'SUBMITTED') {
        const replacement = ok(await t.post(paths.replaceTransaction(), { transactionId: id }));
        if (replacement) await t.approve(replacement);
      }
      return;
    }
    case 'deposit':
      ok(
        await t.post(
          pathOf(depositToSandboxVault, { vaultId: [f.treasury, f.ops][a.vault]?.id ?? '' }),
          {
            asset: 'USDC',
            chain: 'ETHEREUM',
            amount: `${amount}5`,
          },
        ),
      );
      return;
    case 'swap': {
      const q = await t.get(
        `/api/external/transactions/trade_quote/${toQueryString({
          vaultId: f.treasury.id,
          fromAsset: 'USDC',
          toAsset: 'ETH',
          fromAmount: TRADE_AMOUNTS[a.amount] ?? '12',
          blockChain: 'ETHEREUM',
          toBlockchain: 'ETHEREUM',
        })}`,
      );
      expect(q.status, JSON.stringify(q.body)).toBe(200);
      const answer = GetTradeQuoteResponse.parse(q.body);
      await createApproved({
        vaultId: f.treasury.id,
        tradeRequestData: answer.tradeRequestData,
        tradeResponseData: answer.tradeResponseDataList[0],
        category: 'SWAP',
        blockChain: 'ETHEREUM',
      });
      return;
    }
    case 'offRamp': {
      const intent = {
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'BANK_ACCOUNT', id: run.bankAccountId },
        fromAsset: 'USDC',
        fromAmount: TRADE_AMOUNTS[a.amount] ?? '12',
        fromChain: 'ETHEREUM',
        toAsset: 'USD',
      };
      const q = await t.post(QUOTE_PATH, { intent });
      expect(q.status, JSON.stringify(q.body)).toBe(200);
      const id = ok(
        await t.post(INTENT_CREATE_PATH, { intent, quoteId: bestQuote(q.body).quoteId }),
      );
      if (id) await t.approve(id);
      return;
    }
    case 'stake':
    case 'unstake':
      // An unstake beyond what is staked is refused (a 400), as it should be.
      await createApproved({
        category: 'STAKE',
        ...(a.kind === 'unstake' ? { subCategory: 'UNSTAKE' } : {}),
        source: { type: 'VAULT', id: f.treasury.id },
        asset: 'ETH',
        blockChain: 'ETHEREUM',
        amount,
      });
      return;
    case 'advance':
      await t.run(a.ms);
      // Staking rewards fall due on the same clock, as the simulator's pass pays them.
      await payStakingRewards(t.db, t.clock.now());
      return;
  }
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

async function check(run: Run, start: Date): Promise<void> {
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
        fc.array(action, { minLength: 3, maxLength: 7 }),
        fc.integer({ min: 0, max: 23 }),
        async (actions, startHour) => {
          const orgId = (await createOrg(database.db)).id;
          const clock = new TestClock(new Date(Date.UTC(2030, 4, 10, startHour, 30)));
          const start = clock.now();
          const t = await createEngineTestApp({ database, orgId, clock });
          const f = await createEngineFixture(database.db, orgId);
          const bank = await createBankAccount(database.db, {
            orgId,
            status: 'APPROVED',
            accountName: 'Ledger payouts',
            accountNumber: '123123123',
          });
          const run: Run = { t, f, bankAccountId: bank.id, stuck: [] };
          for (const a of actions) await perform(run, a);
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
