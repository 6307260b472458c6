import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { openDatabase, type Database, type DatabaseHandle } from './client.ts';
import { WAIT_LIMITS } from './pglite-remote.ts';
import type { cachedRead } from './read-cache.ts';
import { ReadCache } from './read-cache.ts';
import { sessions } from './schema/console.ts';
import { transactions, vaults } from './schema/sandbox.ts';

/**
 * PGlite in its own thread answers as PGlite in process did:
 * statements and transactions one at a time, a transaction's statements
 * never mixed with another's, errors with their SQLSTATE and constraint,
 * and every write the code declares counted for the read cache before its
 * caller goes on.
 */

let dataDir: string;
let handle: DatabaseHandle;
let db: Database;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'custody-remote-'));
  handle = await openDatabase({ dataDir, databaseUrl: undefined }, undefined, {
    pgliteThread: 'worker',
  });
  db = handle.db;
  await db.execute(sql`create table t (n int primary key)`);
});
afterAll(async () => {
  await handle.close();
  await rm(dataDir, { recursive: true, force: true });
});

async function count(on: Pick<Database, 'execute'> = db): Promise<number> {
  const result = (await on.execute(sql`select count(*)::int as n from t`)) as unknown as {
    rows: Array<{ n: number }>;
  };
  return result.rows[0]?.n ?? -1;
}

describe('PGlite in a worker thread', () => {
  it('runs no other statement inside an open transaction: it waits for the commit', async () => {
    await db.execute(sql`delete from t`);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let firstInserted: () => void = () => undefined;
    const inserted = new Promise<void>((resolve) => (firstInserted = resolve));
    const first = db.transaction(async (tx) => {
      await tx.execute(sql`insert into t values (1)`);
      firstInserted();
      await gate;
      await tx.execute(sql`insert into t values (2)`);
    });
    await inserted;
    // Sent while the first is open: run inside it, they would see one row.
    const outside = count();
    const another = db.transaction(async (tx) => {
      const seen = await count(tx);
      await tx.execute(sql`insert into t values (3)`);
      return seen;
    });
    release();
    await first;
    // Before or after the other transaction, never inside the first (which had one row then).
    expect([2, 3]).toContain(await outside);
    expect(await another).toBe(2);
    expect(await count()).toBe(3);
  });

  it('rolls a transaction back when it throws, and a savepoint when a nested one does', async () => {
    await db.execute(sql`delete from t`);
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`insert into t values (1)`);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await count()).toBe(0);
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into t values (1)`);
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into t values (2)`);
          throw new Error('inner only');
        })
        .catch(() => undefined);
      await tx.execute(sql`select pg_advisory_xact_lock(1)`);
    });
    expect(await count()).toBe(1);
  });

  it('answers an error with its SQLSTATE and constraint', async () => {
    await db.execute(sql`delete from t`);
    await db.execute(sql`insert into t values (1)`);
    const error = await db.execute(sql`insert into t values (1)`).catch((e: unknown) => e);
    const cause = (error as { cause?: Record<string, unknown> }).cause;
    expect(cause).toMatchObject({ code: '23505', constraint: 't_pkey', severity: 'ERROR' });
    expect(cause).toBeInstanceOf(Error);
    // The connection goes on.
    expect(await count()).toBe(1);
  });

  it('counts every write for the read cache by the table the code names, before its caller goes on', async () => {
    await handle.migrate();
    const cache = new ReadCache(db);
    const version = (tables: Parameters<typeof cachedRead>[2]) =>
      cache.versionFor({ cache }, tables);
    const before = {
      sessions: await version([sessions]),
      vaults: await version([vaults]),
      transactions: await version([transactions]),
    };
    await db
      .update(transactions)
      .set({ memo: sql`memo` })
      .where(sql`false`);
    const afterStatement = await version([transactions]);
    expect(afterStatement).not.toBe(before.transactions);
    await db.transaction(async (tx) => {
      await tx
        .update(transactions)
        .set({ memo: null })
        .where(sql`false`);
    });
    expect(await version([transactions])).not.toBe(afterStatement);
    // Other tables' answers outlive those writes.
    expect(await version([sessions])).toBe(before.sessions);
    expect(await version([vaults])).toBe(before.vaults);
  });

  it('answers every type as PGlite in process does: the worker sends text, this thread parses it', async () => {
    const query = sql`select '{a,"b c"}'::text[] as words, '{1,2}'::int[] as numbers,
      '{"k":[1,{"n":null}]}'::jsonb as doc, '[1]'::json as list, 9007199254740993::int8 as big,
      true as yes, 1.5::float8 as half, '12.50'::numeric as amount, null::text as nothing,
      '2024-01-02T03:04:05.123456Z'::timestamptz as at, '\\x0102'::bytea as raw`;
    const inWorker = (await db.execute(query)) as unknown as { rows: unknown[] };
    const local = await openDatabase(
      { dataDir: await mkdtemp(path.join(tmpdir(), 'custody-local-')), databaseUrl: undefined },
      undefined,
      { pgliteThread: 'this' },
    );
    try {
      const inProcess = (await local.db.execute(query)) as unknown as { rows: unknown[] };
      expect(inWorker.rows).toEqual(inProcess.rows);
      expect(inWorker.rows[0]).toMatchObject({ words: ['a', 'b c'], numbers: [1, 2], yes: true });
    } finally {
      await local.close();
    }
  });

  it("reads a transaction's statements without a turn of the event loop once it has begun", async () => {
    await db.execute(sql`delete from t`);
    // However slow the machine: this is about when the answers are read, not how fast they come.
    const limits = { ...WAIT_LIMITS };
    Object.assign(WAIT_LIMITS, { statementMs: 60_000, transactionMs: 60_000 });
    onTestFinished(() => {
      Object.assign(WAIT_LIMITS, limits);
    });
    const turns: string[] = [];
    await db.transaction(async (tx) => {
      await tx.execute(sql`insert into t values (1)`);
      setImmediate(() => turns.push('event loop'));
      await tx.execute(sql`insert into t values (2)`);
      await tx.execute(sql`insert into t values (3)`);
      turns.push('statements');
    });
    expect(turns[0]).toBe('statements');
    expect(await count()).toBe(3);
  });
});
