import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrg, createTransaction, createVault } from '../test/fixtures.ts';
import { createTestDatabase } from '../test/test-database.ts';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  openDatabase,
  PGLITE_SHARED_BUFFERS,
  type Database,
  type DatabaseHandle,
} from './client.ts';
import { vaultBalances } from './schema/sandbox.ts';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { createStaff } from '../auth/staff.store.ts';
import { ssoSettings } from './schema/console.ts';

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

/** The console track applied up to `tag` only, as a server running an older release left it. */
async function migrateConsoleUpTo(handle: DatabaseHandle, tag: string) {
  const source = path.join(import.meta.dirname, 'migrations', 'console');
  const folder = await mkdtemp(path.join(tmpdir(), 'custody-migrations-'));
  try {
    await cp(source, folder, { recursive: true });
    const journalPath = path.join(folder, 'meta', '_journal.json');
    const journal = JSON.parse(await readFile(journalPath, 'utf8')) as {
      entries: { tag: string }[];
    };
    const upTo = journal.entries.findIndex((entry) => entry.tag === tag);
    expect(upTo).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, upTo + 1);
    await writeFile(journalPath, JSON.stringify(journal));
    const config = {
      migrationsFolder: folder,
      migrationsSchema: 'drizzle',
      migrationsTable: '__console_migrations',
    };
    if (handle.driver === 'pglite')
      await migratePglite(handle.db as unknown as PgliteDatabase, config);
    else await migratePg(handle.db as unknown as NodePgDatabase, config);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

describe('the move of single sign-on refresh tokens from sessions to members', () => {
  let old: DatabaseHandle;
  beforeAll(async () => {
    old = await createTestDatabase({ migrated: false });
  });
  afterAll(() => old.close());

  it('keeps each member’s latest live session’s refresh token as theirs, under the configuration in force', async () => {
    await migrateConsoleUpTo(old, '0033_schedule_pre_approval');
    const now = new Date('2026-11-30T10:00:00Z');
    await old.db.insert(ssoSettings).values({
      id: 'oidc',
      enabled: true,
      label: 'Acme',
      issuer: 'https://idp.acme.test',
      clientId: 'console',
      clientSecret: 'secret',
      groupsClaim: 'groups',
      scopes: 'openid',
      passwordSignIn: 'everyone',
      updatedAt: now,
    });
    const member = await createStaff(
      old.db,
      { email: 'sso-move@acme.test', name: 'Moved', role: 'viewer', password: 'x'.repeat(16) },
      { now, passwordHash: 'not-a-real-hash' },
    );
    const session = (id: string, minutes: number, refresh: string | null, revoked = false) => sql`
      insert into console.sessions (id, token_hash, staff_id, csrf_token, created_at, last_seen_at,
        expires_at, revoked_at, sso_refresh_token, sso_access_token, sso_checked_at)
      values (${id}, ${`hash-${id}`}, ${member.id}, 'csrf', ${new Date(now.getTime() + minutes * 60_000)},
        ${now}, ${new Date(now.getTime() + 86_400_000)}, ${revoked ? now : null}, ${refresh},
        ${`access-${id}`}, ${now})`;
    await old.db.execute(session('older', 1, 'refresh-older'));
    await old.db.execute(session('newer', 2, 'refresh-newer'));
    await old.db.execute(session('signed-out', 3, 'refresh-signed-out', true));
    await old.db.execute(session('access-only', 4, null));

    await old.migrate(['console']);

    expect(
      await rows(
        old.db,
        sql`select staff_id, issuer, client_id, refresh_token from console.sso_refresh_tokens`,
      ),
    ).toEqual([
      {
        staff_id: member.id,
        issuer: 'https://idp.acme.test',
        client_id: 'console',
        refresh_token: 'refresh-newer',
      },
    ]);
    expect(
      await rows(
        old.db,
        sql`select id, sso_issuer, sso_client_id from console.sessions order by created_at`,
      ),
    ).toEqual(
      ['older', 'newer', 'signed-out', 'access-only'].map((id) => ({
        id,
        sso_issuer: 'https://idp.acme.test',
        sso_client_id: 'console',
      })),
    );
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
