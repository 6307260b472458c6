import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg, createTransaction, createVault } from '../test/fixtures.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  openDatabase,
  PGLITE_SHARED_BUFFERS,
  type Database,
  type DatabaseHandle,
} from './client.ts';
import { vaultBalances } from './schema/sandbox.ts';

// Both drivers answer raw SQL with `{ rows }`; the shared Database type cannot say so.
async function rows<T>(db: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await db.execute(query)) as { rows: T[] }).rows;
}

async function schemas(db: Database): Promise<string[]> {
  const found = await rows<{ schema_name: string }>(
    db,
    sql`select schema_name from information_schema.schemata where schema_name in ('console', 'sandbox') order by 1`,
  );
  return found.map((r) => r.schema_name);
}

describe('migrations', () => {
  let fresh: DatabaseHandle;
  beforeAll(async () => {
    fresh = await createTestDatabase({ migrated: false });
  });
  afterAll(() => fresh.close());

  it('creates only the console schema when asked for the console track (upstream mode)', async () => {
    await fresh.migrate(['console']);
    expect(await schemas(fresh.db)).toEqual(['console']);
  });

  it('adds the sandbox track later, and applying again changes nothing', async () => {
    await fresh.migrate();
    await fresh.migrate();
    expect(await schemas(fresh.db)).toEqual(['console', 'sandbox']);
    await fresh.withStartupLock(async (db) => {
      const applied = await rows<{ n: number }>(
        db,
        sql`select count(*)::int as n from drizzle.__sandbox_migrations`,
      );
      expect(applied[0]?.n).toBeGreaterThan(0);
    });
    await fresh.ping();
  });
});

describe('PGlite in a directory', () => {
  it('runs with the small buffer pool, and keeps what was written across a reopen', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'custody-client-'));
    try {
      const first = await openDatabase({ dataDir, databaseUrl: undefined });
      try {
        const [shown] = await rows<{ shared_buffers: string }>(first.db, sql`show shared_buffers`);
        expect(shown?.shared_buffers).toBe(PGLITE_SHARED_BUFFERS);
        // The server's sessions and timestamps assume UTC; the start parameters must keep initdb's.
        const [zone] = await rows<{ TimeZone: string }>(first.db, sql`show timezone`);
        expect(zone?.TimeZone).toBe('UTC');
        await first.db.execute(sql`create table kept (v text)`);
        await first.db.execute(sql`insert into kept values ('written')`);
      } finally {
        await first.close();
      }
      const second = await openDatabase({ dataDir, databaseUrl: undefined });
      try {
        expect(await rows<{ v: string }>(second.db, sql`select v from kept`)).toEqual([
          { v: 'written' },
        ]);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('constraints that protect the sandbox', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());

  it('refuses a negative vault balance', async () => {
    const org = await createOrg(handle.db);
    const vault = await createVault(handle.db, { orgId: org.id });
    await expect(
      handle.db.insert(vaultBalances).values({
        vaultId: vault.id,
        asset: 'ETH',
        chain: 'ETHEREUM',
        amount: '-0.000001',
        updatedAt: new Date(),
      }),
    ).rejects.toThrow();
  });

  it('keeps externalId unique per organization, and only when given', async () => {
    const org = await createOrg(handle.db);
    const other = await createOrg(handle.db);
    await createTransaction(handle.db, { orgId: org.id, externalId: 'dup-1' });
    await expect(
      createTransaction(handle.db, { orgId: org.id, externalId: 'dup-1' }),
    ).rejects.toThrow();
    await createTransaction(handle.db, { orgId: other.id, externalId: 'dup-1' });
    await createTransaction(handle.db, { orgId: org.id, externalId: null });
    await createTransaction(handle.db, { orgId: org.id, externalId: null });
  });

  it('stores amounts exactly, beyond what a float could hold', async () => {
    const org = await createOrg(handle.db);
    const tx = await createTransaction(handle.db, {
      orgId: org.id,
      amount: '123456789012345678.123456789012345678',
    });
    expect(tx.amount).toBe('123456789012345678.123456789012345678');
  });
});
