import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import { paths } from '#contract/paths.ts';
import type { Database } from '../../../db/client.ts';
import { transactionStatusEvents, transactions } from '../../../db/schema/sandbox.ts';
import { createTransaction } from '../../../test/fixtures.ts';
import {
  createEngineFixture,
  createEngineTestApp,
  TIME_SCALE,
  type EngineFixture,
  type EngineTestApp,
} from '../../../test/engine-test-app.ts';
import { inArray } from 'drizzle-orm';
import { treasuryToOps } from '../../../test/create-requests.ts';
import {
  adaptiveBatch,
  runDueSteps,
  simulatorLag,
  startSimulator,
  type BatchSize,
} from './simulator.ts';

let t: EngineTestApp;
let f: EngineFixture;

beforeAll(async () => {
  t = await createEngineTestApp();
  f = await createEngineFixture(t.db, t.orgId);
});
afterAll(() => t.close());

const silent = { error: vi.fn() };

async function approvedTransfer(): Promise<string> {
  const res = await t.post(paths.transactions(), treasuryToOps(f, '0.1'));
  const id = String(res.body.id);
  await t.approve(id);
  return id;
}

describe('startSimulator', () => {
  it('moves due transactions on its own, and after stop() moves nothing', async () => {
    const simulator = startSimulator({
      db: t.db,
      clock: t.clock,
      timeScale: TIME_SCALE,
      logger: silent,
      intervalMs: 5,
    });
    const id = await approvedTransfer();
    t.clock.advance(3_600_000);
    await vi.waitFor(async () => expect(await t.status(id)).toBe('COMPLETED'), {
      timeout: 10_000,
      interval: 20,
    });
    await simulator.stop();

    const later = await approvedTransfer();
    t.clock.advance(3_600_000);
    // Stopped: a direct pass is the only thing that can move it now.
    expect(await t.status(later)).toBe('APPROVED');
    expect(await t.run()).toBeGreaterThan(0);
    expect(await t.status(later)).toBe('COMPLETED');
    expect(silent.error).not.toHaveBeenCalled();
  });

  it('backs off a step that throws instead of spinning on it, and the others still move', async () => {
    const logger = { error: vi.fn() };
    // A chain the fee model does not know: its signing step throws.
    const broken = await createTransaction(t.db, {
      orgId: t.orgId,
      status: 'APPROVED',
      blockChain: 'NOWHERE',
      nextStepAt: t.clock.now(),
    });
    const fine = await approvedTransfer();
    const steps = await runDueSteps(t.db, t.clock, { timeScale: TIME_SCALE, logger });
    expect(steps).toBeLessThan(10);
    expect(logger.error).toHaveBeenCalledTimes(1);
    const [row] = await t.db.select().from(transactions).where(eq(transactions.id, broken.id));
    expect(row?.status).toBe('APPROVED');
    expect(row?.nextStepAt?.getTime()).toBe(t.clock.now().getTime() + 5_000);
    expect(await t.status(fine)).toBe('SIGNED');
  });

  it('keeps polling through a database outage, logs it once, and moves again once it is back', async () => {
    // The database refuses connections for the first passes (as a stopped PostgreSQL does).
    let refusals = 6;
    const away: Database = new Proxy(t.db, {
      get(target, key, receiver) {
        if ((key === 'select' || key === 'transaction') && refusals > 0) {
          refusals -= 1;
          const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), {
            code: 'ECONNREFUSED',
          });
          return () => {
            throw refused;
          };
        }
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const logger = { error: vi.fn() };
    const id = await approvedTransfer();
    t.clock.advance(3_600_000);
    const simulator = startSimulator({
      db: away,
      clock: t.clock,
      timeScale: TIME_SCALE,
      logger,
      intervalMs: 1,
    });
    try {
      await vi.waitFor(async () => expect(await t.status(id)).toBe('COMPLETED'), {
        timeout: 10_000,
        interval: 20,
      });
    } finally {
      await simulator.stop();
    }
    expect(refusals).toBe(0);
    // Once for the whole outage (the other line is the earlier test's broken chain, due again).
    const outage = logger.error.mock.calls.filter(([, message]) =>
      /database is unavailable/.test(String(message)),
    );
    expect(outage).toHaveLength(1);
  });
});

describe('runDueSteps in batches', () => {
  const batchOf = (size: number): BatchSize & { sizes: number[]; overdue: number[] } => {
    const sizes: number[] = [];
    const overdue: number[] = [];
    return {
      sizes,
      overdue,
      next: () => size,
      took: (steps, _ms, overdueMs) => {
        sizes.push(steps);
        overdue.push(overdueMs ?? -1);
      },
    };
  };

  it('takes due steps earliest first, several per database transaction, and reports its lag', async () => {
    // Park everything earlier tests left due.
    await t.run();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) ids.push(await approvedTransfer());
    // Due 100 ms apart, the first created first (a signed one is next due seconds later).
    const base = t.clock.now().getTime();
    for (const [i, id] of ids.entries())
      await t.db
        .update(transactions)
        .set({ nextStepAt: new Date(base - (ids.length - i) * 100) })
        .where(eq(transactions.id, id));
    expect(await simulatorLag(t.db, t.clock.now())).toEqual({ due: 5, oldestDueSeconds: 0.5 });

    const batch = batchOf(2);
    const steps = await runDueSteps(t.db, t.clock, { timeScale: TIME_SCALE, batch, maxSteps: 3 });
    expect(steps).toBe(3);
    expect(batch.sizes).toEqual([2, 1]);
    // Each batch tells how long its first step had been due: what sizes the next while behind.
    expect(batch.overdue).toEqual([500, 300]);
    const rows = await t.db
      .select({ id: transactions.id, status: transactions.status })
      .from(transactions)
      .where(inArray(transactions.id, ids));
    const signed = ids.filter((id) => rows.find((r) => r.id === id)?.status === 'SIGNED');
    // The three due longest, and only they.
    expect(signed.sort()).toEqual(ids.slice(0, 3).sort());
    // Each step's status event is written (a batch's together, at its end), in the order taken.
    const events = await t.db
      .select({ transactionId: transactionStatusEvents.transactionId })
      .from(transactionStatusEvents)
      .where(
        and(
          inArray(transactionStatusEvents.transactionId, ids),
          eq(transactionStatusEvents.status, 'SIGNED'),
        ),
      )
      .orderBy(asc(transactionStatusEvents.id));
    expect(events.map((e) => e.transactionId)).toEqual(ids.slice(0, 3));
    expect(await simulatorLag(t.db, t.clock.now())).toEqual({ due: 2, oldestDueSeconds: 0.2 });
    await t.run();
    expect(await simulatorLag(t.db, t.clock.now())).toEqual({ due: 0, oldestDueSeconds: 0 });
  });

  it('begins no batch before what it waits for lets it (the pages being sent, on PGlite)', async () => {
    await t.run();
    const id = await approvedTransfer();
    let asked!: () => void;
    const waiting = new Promise<void>((resolve) => (asked = resolve));
    let letGo!: () => void;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    const beforeBatch = vi.fn(() => {
      asked();
      return gate;
    });
    const run = runDueSteps(t.db, t.clock, { timeScale: TIME_SCALE, beforeBatch });
    await waiting;
    // Asked, and not let go: the step due has not been taken.
    expect(await t.status(id)).toBe('APPROVED');
    letGo();
    expect(await run).toBe(1);
    expect(await t.status(id)).toBe('SIGNED');
    // And again before the batch that looked for more and found none.
    expect(beforeBatch).toHaveBeenCalledTimes(2);
  });

  it('puts off only the step that throws when a batch fails; the rest of the batch moves', async () => {
    await t.run();
    const logger = { error: vi.fn() };
    const fine = await approvedTransfer();
    const broken = await createTransaction(t.db, {
      orgId: t.orgId,
      status: 'APPROVED',
      blockChain: 'NOWHERE',
      nextStepAt: t.clock.now(),
    });
    const alsoFine = await approvedTransfer();
    await runDueSteps(t.db, t.clock, { timeScale: TIME_SCALE, logger, batch: batchOf(10) });
    expect(logger.error).toHaveBeenCalledTimes(1);
    expect(await t.status(fine)).toBe('SIGNED');
    expect(await t.status(alsoFine)).toBe('SIGNED');
    const [row] = await t.db.select().from(transactions).where(eq(transactions.id, broken.id));
    expect(row?.status).toBe('APPROVED');
    expect(row?.nextStepAt?.getTime()).toBe(t.clock.now().getTime() + 5_000);
  });
});

describe('adaptiveBatch', () => {
  // Batches of steps that take `msPerStep` each, the first due `overdueMs` ago; the size it settles at.
  const settle = (batch: BatchSize, msPerStep: number, overdueMs: number) => {
    for (let i = 0; i < 20; i += 1) {
      const size = batch.next();
      batch.took(size, size * msPerStep, overdueMs);
    }
    return batch.next();
  };

  it('sizes batches to about 25 ms of steps, longer in proportion to how far behind it is (at most 4x), and shrinks back once caught up', () => {
    expect(settle(adaptiveBatch(), 5, 0)).toBe(5);
    expect(settle(adaptiveBatch(), 5, 1_000)).toBe(5);
    expect(settle(adaptiveBatch(), 5, 2_000)).toBe(10);
    expect(settle(adaptiveBatch(), 5, 3_000)).toBe(15);
    // Capped at 4x (about 100 ms a batch, what a request may wait behind one), and at `max` steps.
    expect(settle(adaptiveBatch(), 5, 60_000)).toBe(20);
    expect(settle(adaptiveBatch(25, 12), 5, 60_000)).toBe(12);
    const batch = adaptiveBatch();
    expect(settle(batch, 5, 4_000)).toBe(20);
    // Caught up: back to about the usual length (halving the way there, rounded).
    expect(settle(batch, 5, 0)).toBeLessThanOrEqual(6);
  });
});
