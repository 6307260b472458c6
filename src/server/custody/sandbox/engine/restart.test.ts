import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { cmp, sub } from '#contract/decimal.ts';
import { isTerminalStatus, type TransactionStatus } from '#contract/enums.ts';
import { paths } from '#contract/paths.ts';
import { openDatabase } from '../../../db/client.ts';
import { transactions, vaultBalances } from '../../../db/schema/sandbox.ts';
import { createTestDatabaseConfig, type TestDatabaseConfig } from '../../../test/test-database.ts';
import { seedSandbox } from '../seed.ts';
import { TestClock } from '../../../test/test-clock.ts';
import {
  createEngineFixture,
  createEngineTestApp,
  TIME_SCALE,
} from '../../../test/engine-test-app.ts';
import { treasuryToOps } from '../../../test/create-requests.ts';
import { runDueSteps } from './simulator.ts';

const HOUR = 3_600_000;
const configs: TestDatabaseConfig[] = [];

async function storage() {
  const config = await createTestDatabaseConfig();
  configs.push(config);
  return config;
}

afterAll(async () => {
  for (const c of configs) await c.cleanup();
});

describe('restart', () => {
  it('a lifecycle interrupted by closing the database resumes where it stood', async () => {
    const config = await storage();
    const clock = new TestClock();
    const first = await createEngineTestApp({ database: await openDatabase(config), clock });
    const f = await createEngineFixture(first.db, first.orgId);
    const before = await first.balance(f.treasury.id, 'ETH', 'ETHEREUM');
    const res = await first.post(paths.transactions(), treasuryToOps(f, '2'));
    const id = String(res.body.id);
    await first.approve(id);
    await first.run(1_500);
    expect(await first.status(id)).toBe('SUBMITTED');
    const held = (await first.balance(f.treasury.id, 'ETH', 'ETHEREUM')).held;
    expect(cmp(held, '2')).toBe(1);
    await first.close();

    const second = await createEngineTestApp({
      database: await openDatabase(config),
      orgId: first.orgId,
      clock,
    });
    try {
      // The hold survived the restart with everything else.
      expect((await second.balance(f.treasury.id, 'ETH', 'ETHEREUM')).held).toBe(held);
      await second.run(HOUR);
      const tx = await second.get(paths.transaction(id));
      expect(tx.body.status).toBe('COMPLETED');
      const fee = (tx.body.fees as { amount: string }).amount;
      expect(await second.balance(f.treasury.id, 'ETH', 'ETHEREUM')).toEqual({
        amount: sub(sub(before.amount, '2'), fee),
        held: '0',
      });
      expect(await second.balance(f.ops.id, 'ETH', 'ETHEREUM')).toEqual({ amount: '3', held: '0' });
    } finally {
      await second.close();
    }
  });
});

describe('seeded transactions in flight', () => {
  it('carry holds and a next step, and the simulator finishes every one of them', async () => {
    const config = await storage();
    const database = await openDatabase(config);
    try {
      const now = new Date('2030-01-05T12:30:00.000Z');
      await seedSandbox(database.db, { now });
      const moving: TransactionStatus[] = [
        'APPROVED',
        'SIGNED',
        'SUBMITTED',
        'WAITING_CONFIRMATION',
      ];
      const inFlight = await database.db
        .select()
        .from(transactions)
        .where(inArray(transactions.status, moving));
      expect(inFlight.length).toBeGreaterThan(0);
      for (const r of inFlight) expect(r.nextStepAt, r.id).not.toBeNull();
      const [heldBefore] = await database.db
        .select({ held: sql<string>`sum(${vaultBalances.held})` })
        .from(vaultBalances);
      expect(cmp(heldBefore?.held ?? '0', '0')).toBe(1);

      const clock = new TestClock(now);
      clock.advance(6 * HOUR);
      await runDueSteps(database.db, clock, { timeScale: TIME_SCALE });

      const after = await database.db
        .select()
        .from(transactions)
        .where(
          inArray(
            transactions.id,
            inFlight.map((r) => r.id),
          ),
        );
      for (const r of after)
        expect(isTerminalStatus(r.status), `${r.id} ${r.category} ${r.status}`).toBe(true);
      const balances = await database.db.select().from(vaultBalances);
      for (const b of balances) {
        expect(cmp(b.amount, '0'), `${b.vaultId} ${b.asset}`).toBeGreaterThanOrEqual(0);
        expect(cmp(b.held, '0'), `${b.vaultId} ${b.asset} held`).toBe(0);
      }
      const completed = after.filter((r) => r.status === 'COMPLETED');
      expect(completed.length).toBeGreaterThan(0);
      for (const r of completed) expect(r.operations?.length, r.id).toBeGreaterThan(0);
      const pending = await database.db
        .select()
        .from(transactions)
        .where(eq(transactions.status, 'PENDING'));
      for (const r of pending) expect(r.simulation, r.id).not.toBeNull();
    } finally {
      await database.close();
    }
  }, 180_000); // seeds 300+ transactions and runs the simulator over all of them: minutes on a loaded 2-core machine
});
