import { and, asc, eq, inArray } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { add, cmp, isZero, neg, sum } from '#contract/decimal.ts';
import { isTerminalStatus, type TransactionStatus } from '#contract/enums.ts';
import { paths } from '#contract/paths.ts';
import type { DatabaseHandle } from '../../../db/client.ts';
import {
  transactionStatusEvents,
  transactions,
  vaultBalances,
} from '../../../db/schema/sandbox.ts';
import { createOrg } from '../../../test/fixtures.ts';
import { createTestDatabase } from '../../../test/test-database.ts';
import { TestClock } from '../../../test/test-clock.ts';
import {
  createEngineFixture,
  createEngineTestApp,
  type EngineFixture,
  type EngineTestApp,
} from '../../../test/engine-test-app.ts';
import { mergeHolds } from './balances.ts';
import { readPlan } from './plan.ts';
import { ALLOWED_TRANSITIONS } from './transitions.ts';

/**
 * Random sequences of creates, approvals, rejections, replacements,
 * concurrent bursts, clock jumps and restarts (a new app and backend over
 * the same database: the engine must need nothing but the database) keep
 * the engine's invariants. Each run is its own organization with its own
 * vaults, so runs share one database without sharing rows.
 */

type Action =
  | {
      kind: 'create';
      from: number;
      to: number;
      asset: number;
      amount: number;
      tier: number;
      externalId: number | null;
      revert: boolean;
    }
  | { kind: 'burst'; count: number; amount: number }
  | { kind: 'approve' | 'reject' | 'replace'; pick: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'restart' };

const AMOUNTS = ['0.1', '0.75', '1.5', '4'];
const ASSETS = [
  { asset: 'ETH', chain: 'ETHEREUM' },
  { asset: 'USDC', chain: 'ETHEREUM' },
  { asset: 'BTC', chain: 'BITCOIN' },
];
const TIERS = ['HIGH', 'MEDIUM', 'LOW'] as const;

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      from: fc.nat(1),
      to: fc.nat(2),
      asset: fc.nat(ASSETS.length - 1),
      amount: fc.nat(AMOUNTS.length - 1),
      tier: fc.nat(2),
      externalId: fc.option(fc.nat(3), { freq: 2 }),
      revert: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('burst' as const),
      count: fc.integer({ min: 2, max: 4 }),
      amount: fc.nat(AMOUNTS.length - 1),
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('approve' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reject' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('replace' as const), pick: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      ms: fc.constantFrom(500, 5_000, 60_000, 600_000, 3_600_000),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
);

/**
 * Always run first: a LOW transfer stuck in congestion is replaced and the
 * replacement lands; another is declined; one reverts; a restart and a burst.
 */
const STUCK_AND_REPLACED: Action[] = [
  { kind: 'create', from: 0, to: 0, asset: 0, amount: 0, tier: 2, externalId: null, revert: false },
  { kind: 'approve', pick: 0 },
  { kind: 'advance', ms: 60_000 },
  { kind: 'replace', pick: 0 },
  { kind: 'approve', pick: 0 },
  { kind: 'create', from: 0, to: 1, asset: 1, amount: 1, tier: 0, externalId: 1, revert: false },
  { kind: 'reject', pick: 0 },
  { kind: 'create', from: 0, to: 0, asset: 0, amount: 0, tier: 0, externalId: null, revert: true },
  { kind: 'approve', pick: 0 },
  { kind: 'restart' },
  { kind: 'burst', count: 3, amount: 3 },
  { kind: 'advance', ms: 3_600_000 },
];

/**
 * Also run first: a replacement of a replacement. The first is stuck in
 * congestion, its replacement is approved and broadcast (5 s), then replaced
 * in turn (the second SUBMITTED one) and that lands: the nonce is spent once.
 */
const REPLACED_TWICE: Action[] = [
  { kind: 'create', from: 0, to: 0, asset: 0, amount: 1, tier: 2, externalId: null, revert: false },
  { kind: 'approve', pick: 0 },
  { kind: 'advance', ms: 60_000 },
  { kind: 'replace', pick: 0 },
  { kind: 'approve', pick: 0 },
  { kind: 'advance', ms: 5_000 },
  { kind: 'replace', pick: 1 },
  { kind: 'approve', pick: 0 },
  { kind: 'advance', ms: 3_600_000 },
];

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

interface Run {
  t: EngineTestApp;
  f: EngineFixture;
  ids: string[];
  runTag: string;
}

/** The n-th (mod count) of this run's transactions in `status`. */
async function pickIn(run: Run, status: TransactionStatus, n: number): Promise<string | undefined> {
  if (run.ids.length === 0) return undefined;
  const rows = await run.t.db
    .select({ id: transactions.id })
    .from(transactions)
    .where(and(inArray(transactions.id, run.ids), eq(transactions.status, status)))
    .orderBy(asc(transactions.createdAt), asc(transactions.id));
  return rows[n % Math.max(rows.length, 1)]?.id;
}

async function perform(run: Run, a: Action): Promise<void> {
  const { t, f } = run;
  const pick = (n: number) => run.ids[n % Math.max(run.ids.length, 1)];
  const body = (fromIdx: number, toIdx: number, assetIdx: number, amountIdx: number) => {
    const from = [f.treasury, f.ops][fromIdx] ?? f.treasury;
    const spec = ASSETS[assetIdx] ?? ASSETS[0];
    const to =
      toIdx === 0
        ? { type: 'CONTACT', id: f.contacts.eth.id }
        : { type: 'VAULT', id: (toIdx === 1 ? f.ops : f.treasury).id };
    return {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: from.id },
      destination:
        spec?.chain === 'BITCOIN' && to.type === 'CONTACT' ? { type: 'VAULT', id: f.gas.id } : to,
      amount: AMOUNTS[amountIdx] ?? '0.1',
      asset: spec?.asset ?? 'ETH',
      blockChain: spec?.chain ?? 'ETHEREUM',
    };
  };
  const remember = (res: { status: number; body: Record<string, unknown> }) => {
    // Refusals are expected (same vault, duplicates…); a 5xx never is.
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    if (res.status === 200) run.ids.push(String(res.body.id));
  };
  switch (a.kind) {
    case 'create':
      return remember(
        await t.post(paths.transactions(), {
          ...body(a.from, a.to, a.asset, a.amount),
          gasParams: { feeTier: TIERS[a.tier] },
          ...(a.externalId === null ? {} : { externalId: `${run.runTag}-${a.externalId}` }),
          ...(a.revert ? { memo: '[simulate:revert]' } : {}),
        }),
      );
    case 'burst': {
      const results = await Promise.all(
        Array.from({ length: a.count }, () =>
          t.post(paths.transactions(), body(0, 1, 0, a.amount)),
        ),
      );
      results.forEach(remember);
      await Promise.all(
        results.filter((r) => r.status === 200).map((r) => t.approve(String(r.body.id))),
      );
      await Promise.all([t.run(), t.run()]);
      return;
    }
    case 'approve':
    case 'reject': {
      // Among those still waiting for a decision, so most decisions decide something.
      const id = await pickIn(run, 'PENDING', a.pick);
      if (id && a.kind === 'approve') await t.approve(id);
      if (id && a.kind === 'reject') await t.decline(id, 'property test');
      return;
    }
    case 'replace': {
      const id = (await pickIn(run, 'SUBMITTED', a.pick)) ?? pick(a.pick);
      if (id) remember(await t.post(paths.replaceTransaction(), { transactionId: id }));
      return;
    }
    case 'advance':
      await t.run(a.ms);
      return;
    case 'restart':
      // Nothing but the database carries over: a new app, backend and clock object at the same time.
      run.t = await createEngineTestApp({
        database,
        orgId: t.orgId,
        clock: new TestClock(t.clock.now()),
      });
      return;
  }
}

/** Every status some run ended a transaction in: the generator must reach them all. */
const seen = new Set<string>();

async function checkInvariants(run: Run, initial: Map<string, string>): Promise<void> {
  const { db } = run.t;
  const rows = await db.select().from(transactions).where(eq(transactions.orgId, run.t.orgId));
  for (const r of rows) seen.add(r.replacesTransactionId ? `replacement ${r.status}` : r.status);
  const ids = rows.map((r) => r.id);
  const events = ids.length
    ? await db
        .select()
        .from(transactionStatusEvents)
        .where(inArray(transactionStatusEvents.transactionId, ids))
        .orderBy(asc(transactionStatusEvents.id))
    : [];

  // Statuses only move along allowed edges, terminal stays terminal, the row agrees with its timeline.
  for (const r of rows) {
    const path = events.filter((e) => e.transactionId === r.id).map((e) => e.status);
    expect(path[0], r.id).toBe('PENDING');
    path.reduce((from, to) => {
      expect(ALLOWED_TRANSITIONS[from], `${r.id}: ${path.join(' → ')}`).toContain(to);
      return to;
    });
    expect(path.at(-1), r.id).toBe(r.status);
  }

  // A nonce is spent once: of a transaction and everything that (transitively) replaces it,
  // at most one lands (completes, or reverts and burns its fee); once one has, the others
  // are terminal. And nothing waits parked in SUBMITTED without a live replacement to wait for.
  const byId = new Map(rows.map((r) => [r.id, r]));
  const rootOf = (r: (typeof rows)[number]): string => {
    let at = r;
    for (let parent = byId.get(at.replacesTransactionId ?? ''); parent;) {
      at = parent;
      parent = byId.get(at.replacesTransactionId ?? '');
    }
    return at.id;
  };
  const chains = new Map<string, typeof rows>();
  for (const r of rows) chains.set(rootOf(r), [...(chains.get(rootOf(r)) ?? []), r]);
  for (const [root, chain] of chains) {
    const landed = chain.filter(
      (r) => r.status === 'COMPLETED' || (r.status === 'FAILED' && r.balanceChanges),
    );
    const summary = chain.map((r) => `${r.id} ${r.status}`).join(', ');
    expect(landed.length, `chain of ${root}: ${summary}`).toBeLessThanOrEqual(1);
    if (landed.length === 1)
      for (const r of chain) expect(isTerminalStatus(r.status), `chain: ${summary}`).toBe(true);
  }
  for (const r of rows.filter((x) => x.status === 'SUBMITTED' && x.nextStepAt === null)) {
    const live = rows.some((x) => x.replacesTransactionId === r.id && !isTerminalStatus(x.status));
    expect(live, `${r.id} parked in SUBMITTED with no live replacement`).toBe(true);
  }

  // No externalId twice.
  const externalIds = rows.flatMap((r) => (r.externalId ? [r.externalId] : []));
  expect(new Set(externalIds).size).toBe(externalIds.length);

  // Per finished transaction the changes net to minus the fee (zero for every other asset).
  const moved = new Map<string, string>();
  for (const r of rows.filter(
    (x) => x.status === 'COMPLETED' || (x.status === 'FAILED' && x.balanceChanges),
  )) {
    const changes = r.balanceChanges?.changes ?? [];
    const fee = r.fees?.amount ?? '';
    for (const asset of new Set(changes.map((c) => c.asset ?? ''))) {
      const net = sum(changes.filter((c) => c.asset === asset).map((c) => c.amount ?? '0'));
      expect(net, `${r.id} ${asset}`).toBe(asset === r.fees?.asset ? neg(fee) : '0');
    }
    for (const c of changes) {
      if (c.party?.type !== 'VAULT') continue;
      const key = `${c.party.id}|${c.asset}|${c.chain}`;
      moved.set(key, add(moved.get(key) ?? '0', c.amount ?? '0'));
    }
  }

  // Balances: never negative, equal to the start plus what finished transactions moved,
  // and holding exactly what signed, unfinished transactions reserved.
  const vaultIds = [run.f.treasury.id, run.f.ops.id, run.f.gas.id];
  const balances = await db
    .select()
    .from(vaultBalances)
    .where(inArray(vaultBalances.vaultId, vaultIds));
  const expectedHeld = new Map(
    mergeHolds(
      rows
        .filter((r) => !isTerminalStatus(r.status))
        .flatMap((r) => readPlan(r.simulation)?.holds ?? []),
    ).map((h) => [`${h.vaultId}|${h.asset}|${h.chain}`, h.amount]),
  );
  for (const b of balances) {
    const key = `${b.vaultId}|${b.asset}|${b.chain}`;
    expect(cmp(b.amount, '0'), key).toBeGreaterThanOrEqual(0);
    expect(cmp(b.amount, add(initial.get(key) ?? '0', moved.get(key) ?? '0')), key).toBe(0);
    expect(cmp(b.held, expectedHeld.get(key) ?? '0'), `${key} held`).toBe(0);
  }
  for (const [key, amount] of moved) {
    if (!isZero(amount))
      expect(
        balances.some((b) => `${b.vaultId}|${b.asset}|${b.chain}` === key),
        key,
      ).toBe(true);
  }
}

describe('engine invariants (property)', () => {
  it('hold for random sequences of operations', async () => {
    let runNumber = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(action, { minLength: 4, maxLength: 12 }),
        fc.integer({ min: 0, max: 59 }),
        async (actions, startMinute) => {
          runNumber += 1;
          const orgId = (await createOrg(database.db)).id;
          const clock = new TestClock(new Date(Date.UTC(2030, 1, 1, 8, startMinute)));
          const t = await createEngineTestApp({ database, orgId, clock });
          const f = await createEngineFixture(database.db, orgId);
          const initial = new Map<string, string>();
          for (const b of await database.db
            .select()
            .from(vaultBalances)
            .where(inArray(vaultBalances.vaultId, [f.treasury.id, f.ops.id, f.gas.id])))
            initial.set(`${b.vaultId}|${b.asset}|${b.chain}`, b.amount);
          const run: Run = { t, f, ids: [], runTag: `run${runNumber}` };
          for (const a of actions) {
            await perform(run, a);
            await checkInvariants(run, initial);
          }
          // Let everything approved play out, then look again.
          await run.t.run(6 * 3_600_000);
          await checkInvariants(run, initial);
        },
      ),
      {
        numRuns: 15,
        examples: [
          [STUCK_AND_REPLACED, 3],
          [REPLACED_TWICE, 3],
        ],
      },
    );
    // The example guarantees these whatever the random runs drew.
    for (const status of [
      'COMPLETED',
      'FAILED',
      'DECLINED',
      'replacement COMPLETED',
      'replacement FAILED',
    ])
      expect([...seen], status).toContain(status);
  }, 120_000);
});
