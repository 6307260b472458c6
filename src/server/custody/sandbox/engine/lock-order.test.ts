import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import pg from 'pg';
import { paths } from '#contract/paths.ts';
import { wrapPgPool, type DatabaseHandle } from '../../../db/client.ts';
import { transactions } from '../../../db/schema/sandbox.ts';
import {
  createEngineFixture,
  createEngineTestApp,
  TIME_SCALE,
  type EngineFixture,
  type EngineTestApp,
} from '../../../test/engine-test-app.ts';
import { databaseUrlOf, openSecondHandle } from '../../../test/test-database.ts';
import { runDueSteps } from './simulator.ts';

/**
 * Two servers' simulators completing opposite transfers between
 * the same two vaults at once deadlocked (40P01): completion released the
 * debited vault's hold, then credited the other vault, so A→B locked A then
 * B while B→A locked B then A. Every step now takes balance rows in one
 * order (engine/balances.ts, moveBalances).
 *
 * On PostgreSQL the two completions are made to overlap where the old code
 * deadlocked: each one, after its first statement on a balance row, waits
 * until the other has made its own, is waiting for a lock, or is done. On
 * PGlite one process owns the database and transactions run one at a time,
 * so the same run only checks the outcome.
 */

let first: EngineTestApp;
let second: EngineTestApp;
let f: EngineFixture;

beforeAll(async () => {
  first = await createEngineTestApp();
  f = await createEngineFixture(first.db, first.orgId);
  // A second app instance on the same database, organization and engine clock.
  second = await createEngineTestApp({
    database: openSecondHandle(first.database),
    orgId: first.orgId,
    clock: first.clock,
  });
});
afterAll(async () => {
  await second.close();
  await first.close();
});

interface Side {
  touched: boolean;
  done: boolean;
  pid?: number;
}

function queryText(args: unknown[]): string {
  const [query] = args;
  if (typeof query === 'string') return query;
  return typeof (query as { text?: unknown })?.text === 'string'
    ? (query as { text: string }).text
    : '';
}

/**
 * A server's connections to the test's PostgreSQL, each of whose transactions
 * waits after its first balance-row statement until `ready()` says so.
 */
function pausingServer(url: string, side: Side, ready: () => Promise<boolean>): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    (client as unknown as { query: unknown }).query = async (...args: unknown[]) => {
      const text = queryText(args);
      if (/^\s*begin/i.test(text))
        side.pid = (client as unknown as { processID?: number }).processID;
      const result = await query(...args);
      if (!side.touched && text.includes('"vault_balances"')) {
        side.touched = true;
        // Polled: the other connection's state is in another process, with no event to await.
        while (!(await ready())) await new Promise((resolve) => setTimeout(resolve, 10));
      }
      return result;
    };
  });
  return wrapPgPool(pool);
}

async function transfer(app: EngineTestApp, from: string, to: string): Promise<string> {
  const res = await app.post(paths.transactions(), {
    category: 'TRANSFER',
    source: { type: 'VAULT', id: from },
    destination: { type: 'VAULT', id: to },
    amount: '0.1',
    asset: 'ETH',
    blockChain: 'ETHEREUM',
  });
  expect(res.status).toBe(200);
  const id = String(res.body.id);
  expect(await app.approve(id)).toBe(true);
  return id;
}

/** Runs steps until each of `ids` waits for confirmation, and holds it there (no step due). */
async function toConfirmation(ids: string[]): Promise<void> {
  for (let round = 0; round < 200; round += 1) {
    await first.run(1_000);
    const rows = await first.db
      .select({ id: transactions.id, status: transactions.status })
      .from(transactions)
      .where(inArray(transactions.id, ids));
    for (const row of rows) {
      expect(row.status).not.toBe('COMPLETED');
      if (row.status === 'WAITING_CONFIRMATION')
        await first.db
          .update(transactions)
          .set({ nextStepAt: null })
          .where(eq(transactions.id, row.id));
    }
    if (rows.every((r) => r.status === 'WAITING_CONFIRMATION')) return;
  }
  throw new Error('the transfers did not reach WAITING_CONFIRMATION');
}

describe('balance rows, one lock order', () => {
  it('completes opposite transfers between two vaults on two servers at once, without a deadlock', async () => {
    const before = {
      treasury: await first.balance(f.treasury.id, 'ETH', 'ETHEREUM'),
      ops: await first.balance(f.ops.id, 'ETH', 'ETHEREUM'),
    };
    const there = await transfer(first, f.treasury.id, f.ops.id);
    const back = await transfer(second, f.ops.id, f.treasury.id);
    await toConfirmation([there, back]);
    // Both completions due at once.
    await first.db
      .update(transactions)
      .set({ nextStepAt: first.clock.now() })
      .where(inArray(transactions.id, [there, back]));

    const url = databaseUrlOf(first.database);
    const sides: [Side, Side] = [
      { touched: false, done: false },
      { touched: false, done: false },
    ];
    const watcher = url ? new pg.Pool({ connectionString: url, max: 1 }) : undefined;
    const readyFor = (other: Side) => async () => {
      if (other.touched || other.done) return true;
      if (!watcher || other.pid === undefined) return false;
      const { rows } = await watcher.query<{ waiting: string | null }>(
        'select wait_event_type as waiting from pg_stat_activity where pid = $1',
        [other.pid],
      );
      return rows[0]?.waiting === 'Lock';
    };
    const servers = url
      ? [
          pausingServer(url, sides[0], readyFor(sides[1])),
          pausingServer(url, sides[1], readyFor(sides[0])),
        ]
      : [first.database, second.database];
    const logger = { error: vi.fn() };
    try {
      await Promise.all(
        servers.map(async (server, i) => {
          try {
            await runDueSteps(server.db, first.clock, {
              timeScale: TIME_SCALE,
              logger,
              maxSteps: 1,
            });
          } finally {
            const side = sides[i];
            if (side) side.done = true;
          }
        }),
      );
    } finally {
      if (url) for (const server of servers) await server.close();
      await watcher?.end();
    }

    // A deadlock fails one of them: logged as a failed step and put off 5 s.
    expect(logger.error).not.toHaveBeenCalled();
    if (url) expect(sides.every((s) => s.touched)).toBe(true);
    expect(await first.status(there)).toBe('COMPLETED');
    expect(await first.status(back)).toBe('COMPLETED');
    // Each side paid only its fee: the 0.1 ETH went there and back.
    const after = {
      treasury: await first.balance(f.treasury.id, 'ETH', 'ETHEREUM'),
      ops: await first.balance(f.ops.id, 'ETH', 'ETHEREUM'),
    };
    expect(after.treasury.held).toBe('0');
    expect(after.ops.held).toBe('0');
    expect(Number(after.treasury.amount)).toBeLessThan(Number(before.treasury.amount));
    expect(Number(after.treasury.amount)).toBeGreaterThan(Number(before.treasury.amount) - 0.1);
    expect(Number(after.ops.amount)).toBeLessThan(Number(before.ops.amount));
    expect(Number(after.ops.amount)).toBeGreaterThan(Number(before.ops.amount) - 0.1);
  });
});
