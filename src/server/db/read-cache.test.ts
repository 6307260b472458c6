import path from 'node:path';
import { readdir, readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { eq } from 'drizzle-orm';
import { integer, pgSchema } from 'drizzle-orm/pg-core';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { paths } from '#contract/paths.ts';
import type { App } from '../app.ts';
import { wrapPglite, type Database, type DatabaseHandle } from './client.ts';
import {
  cachedRead,
  ReadCache,
  tablesNamed,
  takeUndeclaredReads,
  useReadCache,
  writtenTable,
} from './read-cache.ts';
import { auditLog, staff, sessions } from './schema/console.ts';
import { transactions } from './schema/sandbox.ts';
import { createSubOrg, createTransaction, createVault } from '../test/fixtures.ts';
import type { StaffSession } from '../test/staff-session.ts';
import { appTestWith } from '../test/app-test.ts';
import { secondServer } from '../test/second-server.ts';
import type { TestApp } from '../test/test-app.ts';
import { loadConfig } from '../env.ts';

/**
 * The read cache (db/read-cache.ts) through the real app: answers are reused
 * only while nothing has committed, whoever commits — this server, a second
 * server on the same database (its own pool on PostgreSQL), or a write that
 * goes around both (the lifecycle simulator, the CLI, psql).
 */

const LIST = `${paths.transactions()}?limit=50`;

interface Listed {
  results: Array<{ id: string; status: string; subOrgId?: string | null }>;
}

async function list(member: StaffSession): Promise<Listed> {
  const res = await member.json(LIST);
  expect(res.status).toBe(200);
  return res.body as Listed;
}

/** `b`: a second server on the same database, `second` its handle; `subA`, `subB` two sub-orgs. */
const appTest = appTestWith()
  .extend('server', { scope: 'file' }, async ({ t }, { onCleanup }) => {
    const server = secondServer(t);
    onCleanup(() => server.close());
    return server;
  })
  .extend('b', { scope: 'file' }, ({ server }) => server.app)
  .extend('second', { scope: 'file' }, ({ server }) => server.handle)
  .extend('subA', { scope: 'file' }, async ({ t }) => (await createSubOrg(t.db, t.orgId, 'A')).id)
  .extend('subB', { scope: 'file' }, async ({ t }) => (await createSubOrg(t.db, t.orgId, 'B')).id);

/** The same member's session, sent to server B instead of A. */
function onB(b: App, member: StaffSession) {
  return (url: string, init?: RequestInit) => b.request(url, member.init(init));
}

describe('read cache', () => {
  appTest(
    'lists a transaction another server created, and a status another process changed',
    async ({ t, second }) => {
      const admin = await t.signIn('admin');
      const before = await list(admin);
      const created = await createTransaction(second.db, { orgId: t.orgId, status: 'PENDING' });
      const after = await list(admin);
      expect(after.results.map((r) => r.id)).toContain(created.id);
      expect(after.results).toHaveLength(before.results.length + 1);

      // Twice in a row with nothing in between: the same answer (from the cache or not).
      const again = await list(admin);
      expect(again).toEqual(after);

      await second.db
        .update(transactions)
        .set({ status: 'COMPLETED' })
        .where(eq(transactions.id, created.id));
      const changed = await list(admin);
      expect(changed.results.find((r) => r.id === created.id)?.status).toBe('COMPLETED');
      const one = await admin.json(paths.transaction(created.id));
      expect((one.body as { status: string }).status).toBe('COMPLETED');
    },
  );

  appTest(
    'lists a vault and a sub-organization another server added, and each member only their own vaults',
    async ({ t, second, subA, subB }) => {
      const admin = await t.signIn('admin');
      const names = async (path: string, member = admin) =>
        (
          (await member.json(path)).body as {
            results: Array<{ vaultName?: string; name?: string }>;
          }
        ).results.map((r) => r.vaultName ?? r.name);
      const vaultsBefore = await names(paths.vaults());
      const subOrgsBefore = await names(paths.subOrgs());
      await createVault(second.db, { orgId: t.orgId, subOrgId: subB, vaultName: 'Added on B' });
      await createSubOrg(second.db, t.orgId, 'Added on B too');
      expect(await names(paths.vaults())).toEqual(
        expect.arrayContaining([...vaultsBefore, 'Added on B']),
      );
      expect(await names(paths.subOrgs())).toEqual(
        expect.arrayContaining([...subOrgsBefore, 'Added on B too']),
      );
      // The same page, cached for the admin, is not what a member of A alone sees.
      const memberOfA = await t.signIn('viewer', { subOrgIds: [subA] });
      expect(await names(paths.vaults(), memberOfA)).not.toContain('Added on B');
    },
  );

  appTest(
    'sees a transaction created through the other server at once',
    async ({ t, second, b }) => {
      const admin = await t.signIn('admin');
      await list(admin);
      const created = await createTransaction(second.db, { orgId: t.orgId });
      const fromB = await onB(b, admin)(LIST);
      expect(((await fromB.json()) as Listed).results.map((r) => r.id)).toContain(created.id);
      expect((await list(admin)).results.map((r) => r.id)).toContain(created.id);
    },
  );

  appTest(
    'keeps each member to their own sub-organizations when they list the same page',
    async ({ t, subA, subB }) => {
      const inA = await createTransaction(t.db, { orgId: t.orgId, subOrgId: subA });
      const inB = await createTransaction(t.db, { orgId: t.orgId, subOrgId: subB });
      const memberA = await t.signIn('viewer', { subOrgIds: [subA] });
      const memberB = await t.signIn('viewer', { subOrgIds: [subB] });
      const seenByA = (await list(memberA)).results.map((r) => r.id);
      const seenByB = (await list(memberB)).results.map((r) => r.id);
      expect(seenByA).toContain(inA.id);
      expect(seenByA).not.toContain(inB.id);
      expect(seenByB).toContain(inB.id);
      expect(seenByB).not.toContain(inA.id);
      expect((await memberB.json(paths.transaction(inA.id))).status).toBe(404);
    },
  );

  appTest(
    'refuses a session at once when it is signed out on the other server',
    async ({ t, b }) => {
      const member = await t.signIn('viewer');
      await list(member);
      const out = await onB(b, member)('/auth/logout', { method: 'POST' });
      expect(out.status).toBeLessThan(300);
      expect((await member.json(LIST)).status).toBe(401);
    },
  );

  appTest('refuses a member at once when another server disables them', async ({ t, second }) => {
    const member = await t.signIn('viewer');
    await list(member);
    await second.db.update(staff).set({ disabled: true }).where(eq(staff.id, member.member.id));
    expect((await member.json(LIST)).status).toBe(401);
  });

  appTest(
    'follows a change of sub-organizations made on the other server',
    async ({ t, second, subA, subB }) => {
      const inB = await createTransaction(t.db, { orgId: t.orgId, subOrgId: subB });
      const member = await t.signIn('viewer', { subOrgIds: [subA] });
      expect((await list(member)).results.map((r) => r.id)).not.toContain(inB.id);
      await second.db
        .update(staff)
        .set({ subOrgIds: [subA, subB] })
        .where(eq(staff.id, member.member.id));
      expect((await list(member)).results.map((r) => r.id)).toContain(inB.id);
    },
  );

  appTest('expires an idle session though nothing was written', async ({ t }) => {
    const member = await t.signIn('viewer');
    await list(member);
    await list(member);
    t.clock.advance(31 * 60_000);
    const res = await member.json(LIST);
    expect(res.status).toBe(401);
    expect((res.body as { message: string }).message).toMatch(/30 minutes/);
    t.clock.advance(-31 * 60_000);
  });

  appTest('refuses a session revoked by a direct database write', async ({ t, second }) => {
    const member = await t.signIn('viewer');
    await list(member);
    await second.db
      .update(sessions)
      .set({ revokedAt: t.clock.now() })
      .where(eq(sessions.staffId, member.member.id));
    expect((await member.json(LIST)).status).toBe(401);
  });
});

describe('snapshot reads on PostgreSQL', () => {
  /** A database whose snapshot queries answer when the test says. */
  function heldDatabase() {
    const queries: Array<(version: string) => void> = [];
    const db = {
      execute: () => new Promise((resolve) => queries.push((v) => resolve({ rows: [{ v }] }))),
    } as unknown as Database;
    return { cache: new ReadCache(db), queries };
  }

  appTest(
    'never answers a request with a snapshot taken before it asked, and shares the next one',
    async () => {
      const { cache, queries } = heldDatabase();
      const first = cache.snapshot();
      expect(queries).toHaveLength(1);
      // These arrive while the first query is in flight: it may predate a commit they must see.
      const second = cache.snapshot();
      const third = cache.snapshot();
      expect(queries).toHaveLength(1);
      queries[0]?.('taken-before');
      expect(await first).toBe('taken-before');
      await vi.waitFor(() => expect(queries).toHaveLength(2));
      queries[1]?.('taken-after');
      expect(await second).toBe('taken-after');
      expect(await third).toBe('taken-after');
      // Nothing in flight: the next request starts its own query at once.
      const fourth = cache.snapshot();
      expect(queries).toHaveLength(3);
      queries[2]?.('latest');
      expect(await fourth).toBe('latest');
    },
  );
});

describe('which table a write changes', () => {
  appTest('names the one schema-qualified table of an insert, update or delete', () => {
    expect(writtenTable('insert into "sandbox"."transactions" ("id") values ($1)')).toBe(
      'sandbox.transactions',
    );
    expect(writtenTable('update "console"."sessions" set "last_seen_at" = $1')).toBe(
      'console.sessions',
    );
    expect(writtenTable('DELETE FROM sandbox.Wallets WHERE id = $1')).toBe('sandbox.wallets');
    expect(writtenTable('insert into "Odd"."Name"("x") values (1)')).toBe('Odd.Name');
  });

  appTest('counts reads and transaction control as no change', () => {
    for (const text of [
      'select 1',
      '  SELECT * from "sandbox"."transactions" for update skip locked',
      'begin',
      'commit',
      'rollback',
      'savepoint sp1',
      'release savepoint sp1',
      'rollback to savepoint sp1',
      'set transaction isolation level serializable',
    ])
      expect(writtenTable(text), text).toBeUndefined();
  });

  appTest('counts whatever it does not recognize as a change to any table', () => {
    for (const text of [
      'with moved as (update "sandbox"."transactions" set status = $1 returning id) select * from moved',
      'insert into transactions (id) values (1)',
      'update only "sandbox"."transactions" set status = $1',
      'truncate "sandbox"."transactions"',
      'create table x (id int)',
      'copy "sandbox"."transactions" from stdin',
    ])
      expect(writtenTable(text), text).toBe('*');
  });
});

describe('versions per table on PGlite', () => {
  const s = pgSchema('s');
  const a = s.table('a', { id: integer('id').primaryKey() });
  const other = s.table('other', { id: integer('id').primaryKey() });
  let handle: DatabaseHandle;
  let client: PGlite;

  beforeAll(async () => {
    // What is reused and what is not: with the cache on, whatever READ_CACHE says.
    useReadCache(true);
    client = new PGlite();
    handle = wrapPglite(client);
    await client.exec(
      'create schema s; create table s.a (id int primary key); create table s.other (id int primary key);',
    );
  });
  afterAll(async () => {
    useReadCache(loadConfig().readCache);
    await handle.close();
  });

  /** An app answering /a and /any through the cache, with how often each read the database. */
  function readingApp() {
    const cache = new ReadCache(handle.db);
    const loads = { a: 0, any: 0 };
    const app = new Hono()
      .use(cache.middleware())
      .get('/a', async (c) =>
        c.json(
          await cachedRead('a', async () => ((loads.a += 1), handle.db.select().from(a)), [a]),
        ),
      )
      .get('/any', async (c) =>
        c.json(await cachedRead('any', async () => ((loads.any += 1), handle.db.select().from(a)))),
      );
    const read = async () => {
      await app.request('/a');
      await app.request('/any');
      return { ...loads };
    };
    return { read };
  }

  appTest(
    'keeps a read that names its tables across writes to other tables, and only those',
    async () => {
      const { read } = readingApp();
      expect(await read()).toEqual({ a: 1, any: 1 });
      expect(await read()).toEqual({ a: 1, any: 1 });

      await handle.db.insert(other).values({ id: 1 });
      // The read of `a` outlives a write to `other`; a read that names no tables does not.
      expect(await read()).toEqual({ a: 1, any: 2 });

      await handle.db.insert(a).values({ id: 1 });
      expect(await read()).toEqual({ a: 2, any: 3 });

      // A transaction counts every table its statements named, once it has settled.
      await handle.db.transaction(async (tx) => {
        await tx.insert(other).values({ id: 2 });
      });
      expect(await read()).toEqual({ a: 2, any: 4 });
      await handle.db.transaction(async (tx) => {
        await tx.insert(other).values({ id: 3 });
        await tx.update(a).set({ id: 2 }).where(eq(a.id, 1));
      });
      expect(await read()).toEqual({ a: 3, any: 5 });
    },
  );

  appTest(
    'a request that writes reuses reads too, and never one older than its own write',
    async () => {
      const cache = new ReadCache(handle.db);
      let loads = 0;
      const readA = () =>
        cachedRead('a', async () => ((loads += 1), handle.db.select().from(a)), [a]);
      const app = new Hono().use(cache.middleware()).post('/write', async (c) => {
        const before = await readA();
        const again = await readA();
        await handle.db.insert(a).values({ id: 70 });
        const after = await readA();
        return c.json({ before: before.length, again: again.length, after: after.length });
      });
      await handle.db.delete(a);
      const res = await app.request('/write', { method: 'POST' });
      // Read once before the write (the second found it), again after it, with its row.
      expect(await res.json()).toEqual({ before: 0, again: 0, after: 1 });
      expect(loads).toBe(2);
    },
  );

  appTest('drops every read after a write it cannot attribute to one table', async () => {
    const { read } = readingApp();
    expect(await read()).toEqual({ a: 1, any: 1 });
    await client.exec(
      'insert into s.other (id) values (10); insert into s.other (id) values (11);',
    );
    expect(await read()).toEqual({ a: 2, any: 2 });
    await client.query(
      'with x as (insert into s.other (id) values (12) returning id) select * from x',
    );
    expect(await read()).toEqual({ a: 3, any: 3 });
  });

  appTest('drops a read of a table a rolled-back transaction wrote to', async () => {
    const { read } = readingApp();
    expect(await read()).toEqual({ a: 1, any: 1 });
    await expect(
      handle.db.transaction(async (tx) => {
        await tx.insert(a).values({ id: 50 });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await read()).toEqual({ a: 2, any: 2 });
  });
});

it('relies on a schema where a statement changes only the table it names', async () => {
  // writtenTable's premise: no foreign key cascades or nulls a change into another
  // table, and the only triggers refuse changes to the audit log or NOTIFY the event
  // streams of a status change (capabilities/live/hub.ts): they write nothing.
  // db/read-cache.ts says what a migration that changes this must change there.
  const dir = path.join(import.meta.dirname, 'migrations');
  const files = (await readdir(dir, { recursive: true })).filter((f) => f.endsWith('.sql'));
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    const text = await readFile(path.join(dir, file), 'utf8');
    expect(text, file).not.toMatch(/on\s+(delete|update)\s+(cascade|set\s+null|set\s+default)/i);
    for (const [trigger] of text.matchAll(/create\s+trigger\s+"?\w+"?/gi))
      expect(trigger, file).toMatch(
        /"(audit_log_(append_only|no_truncate)|(custody|approval|change_request|transaction_status)_events_notify)"/,
      );
  }
});

describe('the tables a cached read declares, checked (tests)', () => {
  afterEach(() => useReadCache(loadConfig().readCache));

  /** Runs `fn` as a GET's handlers run, with a cache of its own. */
  const inRequest = <T>(t: TestApp, fn: () => Promise<T>) => new ReadCache(t.db).run(fn);
  const sessionsOfStaff = (t: TestApp) =>
    t.db
      .select({ id: sessions.id })
      .from(sessions)
      .innerJoin(staff, eq(staff.id, sessions.staffId))
      .limit(1);

  appTest(
    'fails a read that touches a table it did not declare, naming the read and the table',
    async ({ t }) => {
      for (const on of [true, false]) {
        useReadCache(on);
        await expect(
          inRequest(t, () => cachedRead(`too-few:${on}`, () => sessionsOfStaff(t), [staff])),
        ).rejects.toThrow(
          'cachedRead "too-few" read console.sessions but declared only console.staff',
        );
        // And outside a request, where nothing is cached: the declaration is wrong all the same.
        await expect(cachedRead('too-few', () => sessionsOfStaff(t), [staff])).rejects.toThrow(
          'console.sessions',
        );
        // The test set-up would fail this test for them too, even had a route answered a 500.
        expect(takeUndeclaredReads()).toHaveLength(2);
      }
    },
  );

  appTest('passes a read that declares every table it touches', async ({ t }) => {
    await expect(
      inRequest(t, () => cachedRead('enough', () => sessionsOfStaff(t), [staff, sessions])),
    ).resolves.toHaveLength(1);
  });

  appTest(
    "lends a nested read's tables to the read around it, whether it was cached or not",
    async ({ t }) => {
      const inner = () => cachedRead('inner', () => sessionsOfStaff(t), [staff, sessions]);
      const outer = (tables: Parameters<typeof cachedRead>[2]) =>
        cachedRead(
          'outer',
          async () => [
            ...(await inner()),
            ...(await t.db.select({ id: auditLog.id }).from(auditLog).limit(1)),
          ],
          tables,
        );
      await inRequest(t, async () => {
        await inner();
        await expect(outer([auditLog])).rejects.toThrow(
          'read console.staff, console.sessions but declared only console.audit_log',
        );
        await expect(outer([auditLog, staff, sessions])).resolves.toBeDefined();
      });
      expect(takeUndeclaredReads()).toHaveLength(1);
    },
  );

  appTest('reads the tables a statement names, as drizzle and people write them', () => {
    expect(
      tablesNamed(
        'select "transactions"."id" from "sandbox"."transactions" left join "console"."staff" on "staff"."id" = "transactions"."created_by_id"',
      ),
    ).toEqual(['sandbox.transactions', 'console.staff']);
    expect(
      tablesNamed('update console.sessions set x = 1 where id in (select id from Sandbox.Vaults)'),
    ).toEqual(['console.sessions', 'sandbox.vaults']);
    expect(tablesNamed('select pg_current_snapshot()::text as v')).toEqual([]);
    expect(tablesNamed('select sandbox.next_id(1)')).toEqual([]);
  });

  appTest('loads every time with the cache off, and reuses with it on', async ({ t }) => {
    let loads = 0;
    const read = () =>
      inRequest(t, async () => {
        await cachedRead('counted', async () => ((loads += 1), sessionsOfStaff(t)), [
          staff,
          sessions,
        ]);
        await cachedRead('counted', async () => ((loads += 1), sessionsOfStaff(t)), [
          staff,
          sessions,
        ]);
      });
    useReadCache(true);
    await read();
    expect(loads).toBe(1);
    useReadCache(false);
    await read();
    expect(loads).toBe(3);
  });
});
