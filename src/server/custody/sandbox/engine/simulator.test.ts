import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { paths } from '../../../../contract/paths.ts';
import { transactions } from '../../../db/schema/sandbox.ts';
import { createTransaction } from '../../../test/fixtures.ts';
import {
  createEngineFixture,
  createEngineTestApp,
  TIME_SCALE,
  type EngineFixture,
  type EngineTestApp,
} from '../../../test/engine-test-app.ts';
import { runDueSteps, startSimulator } from './simulator.ts';

let t: EngineTestApp;
let f: EngineFixture;

beforeAll(async () => {
  t = await createEngineTestApp();
  f = await createEngineFixture(t.db, t.orgId);
});
afterAll(() => t.close());

const silent = { error: vi.fn() };

async function approvedTransfer(): Promise<string> {
  const res = await t.post(paths.transactions(), {
    category: 'TRANSFER',
    source: { type: 'VAULT', id: f.treasury.id },
    destination: { type: 'VAULT', id: f.ops.id },
    amount: '0.1',
    asset: 'ETH',
    blockChain: 'ETHEREUM',
  });
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
});
