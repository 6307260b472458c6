import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { integer, pgSchema } from 'drizzle-orm/pg-core';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, describe, expect, vi } from 'vitest';
import { paths } from '#contract/paths.ts';
import type { App } from '../app.ts';
import { wrapPglite, type Database, type DatabaseHandle } from './client.ts';
import {
  alsoWrites,
  changedBy,
  declaredWrite,
  installWriteCheck,
  takeUndeclaredWrites,
} from './declared-writes.ts';
import {
  cachedRead,
  ReadCache,
  tableName,
  tablesNamed,
  takeUndeclaredReads,
  useReadCache,
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

describe('versions per table on PGlite', () => {
  const s = pgSchema('s');
  const a = s.table('a', { id: integer('id').primaryKey() });
  const other = s.table('other', { id: integer('id').primaryKey() });
  // A parent whose deletes cascade into its children, declared; and one whose cascade is not.
  const parent = s.table('parent', { id: integer('id').primaryKey() });
  const child = s.table('child', {
    id: integer('id').primaryKey(),
    parentId: integer('parent_id'),
  });
  const orphaned = s.table('orphaned', { id: integer('id').primaryKey() });
  const orphan = s.table('orphan', { id: integer('id').primaryKey(), of: integer('of') });
  // A table whose trigger writes a log, declared; and one whose trigger is not.
  const logged = s.table('logged', { id: integer('id').primaryKey() });
  const silent = s.table('silent', { id: integer('id').primaryKey() });
  const log = s.table('log', { id: integer('id') });
  alsoWrites(parent, [child]);
  alsoWrites(logged, [log]);
  let handle: DatabaseHandle;
  let client: PGlite;

  beforeAll(async () => {
    // What is reused and what is not: with the cache on, whatever READ_CACHE says.
    useReadCache(true);
    client = new PGlite();
    handle = wrapPglite(client);
    await client.exec(`
      create schema s;
      create table s.a (id int primary key);
      create table s.other (id int primary key);
      create table s.parent (id int primary key);
      create table s.child (id int primary key, parent_id int references s.parent (id) on delete cascade);
      create table s.orphaned (id int primary key);
      create table s.orphan (id int primary key, of int references s.orphaned (id) on delete set null);
      create table s.log (id int);
      create function s.write_log() returns trigger language plpgsql as $$
        begin insert into s.log values (new.id); return new; end $$;
      create table s.logged (id int primary key);
      create trigger logs after insert on s.logged for each row execute function s.write_log();
      create table s.silent (id int primary key);
      create trigger logs after insert on s.silent for each row execute function s.write_log();`);
    // What each statement changed, as the database reports it (the storage suite's check).
    await installWriteCheck(client, ['s']);
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
    'has requests that miss together share one load, and never one begun before a write',
    async () => {
      const cache = new ReadCache(handle.db);
      let loads = 0;
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      const app = new Hono().use(cache.middleware()).get('/shared', async (c) =>
        c.json(
          await cachedRead(
            'shared',
            async () => {
              loads += 1;
              const rows = await handle.db.select().from(a);
              await gate;
              return rows;
            },
            [a],
          ),
        ),
      );
      const ids = async (res: Response | Promise<Response>) =>
        ((await (await res).json()) as Array<{ id: number }>).map((row) => row.id);
      const together = [app.request('/shared'), app.request('/shared'), app.request('/shared')];
      await vi.waitFor(() => expect(loads).toBe(1));
      // A turn of the event loop: the other two have asked by then (nothing they await is I/O).
      await new Promise((resolve) => setImmediate(resolve));
      expect(loads).toBe(1);

      // Written while that load is held: a request after the write loads again and sees it.
      await handle.db.insert(a).values({ id: 500 });
      const after = app.request('/shared');
      await vi.waitFor(() => expect(loads).toBe(2));
      release();
      const [first, ...others] = await Promise.all(together.map(ids));
      expect(first).not.toContain(500);
      for (const other of others) expect(other).toEqual(first);
      expect(await ids(after)).toContain(500);
      expect(loads).toBe(2);
    },
  );

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

  /** The message of the check's refusal, which drizzle's error about the query carries as its cause. */
  async function refusal(write: PromiseLike<unknown>): Promise<string> {
    const error = await Promise.resolve(write).then(
      () => new Error('the write was not refused'),
      (e: unknown) => e as Error,
    );
    return error.cause instanceof Error ? error.cause.message : error.message;
  }

  /** How often a cached read of `table` loaded, read once more in a request of its own. */
  function readingOf(table: typeof child | typeof log | typeof a) {
    const cache = new ReadCache(handle.db);
    let loads = 0;
    return async () => {
      await cache.run(() =>
        cachedRead(
          tableName(table),
          async () => ((loads += 1), handle.db.select({ id: table.id }).from(table)),
          [table],
        ),
      );
      return loads;
    };
  }

  appTest('ends reads of a table a declared cascade or trigger writes', async () => {
    await handle.db.insert(parent).values({ id: 1 });
    await handle.db.insert(child).values({ id: 1, parentId: 1 });
    const children = readingOf(child);
    expect(await children()).toBe(1);
    expect(await children()).toBe(1);
    // The statement names the parent only; the cascade empties the children.
    await handle.db.delete(parent).where(eq(parent.id, 1));
    expect(await children()).toBe(2);
    expect(await handle.db.select().from(child)).toEqual([]);

    const logs = readingOf(log);
    expect(await logs()).toBe(1);
    await handle.db.insert(logged).values({ id: 1 });
    expect(await logs()).toBe(2);
    expect(takeUndeclaredWrites()).toEqual([]);
  });

  appTest(
    'fails a write that changed a table it did not declare: a cascade, a trigger, a statement of its own',
    async () => {
      await handle.db.insert(orphaned).values({ id: 1 });
      await handle.db.insert(orphan).values({ id: 1, of: 1 });
      expect(await refusal(handle.db.delete(orphaned))).toContain(
        'a write changed s.orphan but declared only s.orphaned',
      );
      expect(await refusal(handle.db.insert(silent).values({ id: 1 }))).toContain(
        'a write changed s.log but declared only s.silent',
      );
      // In a transaction too, where the check speaks before the commit.
      expect(
        await refusal(handle.db.transaction((tx) => tx.insert(silent).values({ id: 2 }))),
      ).toContain('a write changed s.log but declared only s.silent');
      expect(await refusal(handle.db.execute(sql`insert into s.a values (90)`))).toContain(
        'a write changed s.a but declared only nothing',
      );
      // The test set-up fails the test that made one, even had a route answered a 500.
      expect(takeUndeclaredWrites()).toHaveLength(4);
      // A statement of its own that says what it writes is counted, and passes.
      const as = readingOf(a);
      const before = await as();
      await declaredWrite(handle.db, [a], () =>
        handle.db.execute(sql`insert into s.a values (91)`),
      );
      expect(await as()).toBe(before + 1);
    },
  );

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

appTest(
  'declares every foreign key of the schema that cascades a write into another table',
  async ({ t }) => {
    // The write check (db/declared-writes.ts) proves a declaration right when a test makes the
    // write; this names a cascade the day a migration adds it, tested or not.
    const result = (await t.db.execute(sql`
    select fk.relnamespace::regnamespace::text || '.' || fk.relname as referencing,
           pk.relnamespace::regnamespace::text || '.' || pk.relname as referenced
    from pg_constraint c
    join pg_class fk on fk.oid = c.conrelid
    join pg_class pk on pk.oid = c.confrelid
    where c.contype = 'f' and (c.confdeltype in ('c', 'n', 'd') or c.confupdtype in ('c', 'n', 'd'))
      and pk.relnamespace::regnamespace::text in ('console', 'sandbox')`)) as unknown as {
      rows: Array<{ referencing: string; referenced: string }>;
    };
    for (const { referencing, referenced } of result.rows)
      expect(changedBy([referenced]), `${referenced} cascades into ${referencing}`).toContain(
        referencing,
      );
  },
);

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
