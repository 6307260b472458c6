import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type DatabaseHandle } from './client.ts';
import type { cachedRead } from './read-cache.ts';
import { ReadCache } from './read-cache.ts';
import { sessions } from './schema/console.ts';
import { transactions, vaults } from './schema/sandbox.ts';

/**
 * PGlite in its own thread (issue 31) answers as PGlite in process did:
 * statements and transactions one at a time, a transaction's statements
 * never mixed with another's, errors with their SQLSTATE and constraint,
 * and every write counted for the read cache before it is answered.
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

  it('counts every write for the read cache before answering it, by table', async () => {
    await handle.migrate();
    const cache = new ReadCache(db);
    const version = (tables: Parameters<typeof cachedRead>[2]) =>
      cache.versionFor({ cache }, tables);
    const before = {
      sessions: await version([sessions]),
      vaults: await version([vaults]),
      transactions: await version([transactions]),
    };
    await db.execute(sql`update sandbox.transactions set memo = memo where false`);
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
});
