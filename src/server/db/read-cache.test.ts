import path from 'node:path';
import { eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { paths } from '../../contract/paths.ts';
import { createApp, type App } from '../app.ts';
import { createSandboxBackend } from '../custody/sandbox/sandbox-backend.ts';
import type { Database, DatabaseHandle } from './client.ts';
import { ReadCache } from './read-cache.ts';
import { staff, sessions } from './schema/console.ts';
import { transactions } from './schema/sandbox.ts';
import { createSubOrg, createTransaction, createVault } from '../test/fixtures.ts';
import type { StaffSession } from '../test/staff-session.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { openSecondHandle } from '../test/test-database.ts';

/**
 * The read cache (db/read-cache.ts) through the real app: answers are reused
 * only while nothing has committed, whoever commits — this server, a second
 * server on the same database (its own pool on PostgreSQL), or a write that
 * goes around both (the lifecycle simulator, the CLI, psql).
 */

let t: TestApp;
let second: DatabaseHandle;
let b: App;
let subA: string;
let subB: string;

const LIST = `${paths.transactions()}?limit=50`;

interface Listed {
  results: Array<{ id: string; status: string; subOrgId?: string | null }>;
}

async function list(member: StaffSession): Promise<Listed> {
  const res = await member.json(LIST);
  expect(res.status).toBe(200);
  return res.body as Listed;
}

beforeAll(async () => {
  t = await createTestApp();
  second = openSecondHandle(t.database);
  b = createApp({
    config: { staticDir: path.join(process.cwd(), '.tmp', 'no-spa-here') },
    backend: createSandboxBackend({ db: second.db, orgId: t.orgId }),
    database: second,
    logger: pino({ level: 'silent' }),
    auth: { db: second.db, clock: t.clock },
  });
  subA = (await createSubOrg(t.db, t.orgId, 'A')).id;
  subB = (await createSubOrg(t.db, t.orgId, 'B')).id;
});

afterAll(async () => {
  await second.close();
  await t.close();
});

/** The same member's session, sent to server B instead of A. */
function onB(member: StaffSession) {
  return (url: string, init?: RequestInit) => b.request(url, member.init(init));
}

describe('read cache', () => {
  it('lists a transaction another server created, and a status another process changed', async () => {
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
  });

  it('lists a vault and a sub-organization another server added, and each member only their own vaults', async () => {
    const admin = await t.signIn('admin');
    const names = async (path: string, member = admin) =>
      (
        (await member.json(path)).body as { results: Array<{ vaultName?: string; name?: string }> }
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
  });

  it('sees a transaction created through the other server at once', async () => {
    const admin = await t.signIn('admin');
    await list(admin);
    const created = await createTransaction(second.db, { orgId: t.orgId });
    const fromB = await onB(admin)(LIST);
    expect(((await fromB.json()) as Listed).results.map((r) => r.id)).toContain(created.id);
    expect((await list(admin)).results.map((r) => r.id)).toContain(created.id);
  });

  it('keeps each member to their own sub-organizations when they list the same page', async () => {
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
  });

  it('refuses a session at once when it is signed out on the other server', async () => {
    const member = await t.signIn('viewer');
    await list(member);
    const out = await onB(member)('/auth/logout', { method: 'POST' });
    expect(out.status).toBeLessThan(300);
    expect((await member.json(LIST)).status).toBe(401);
  });

  it('refuses a member at once when another server disables them', async () => {
    const member = await t.signIn('viewer');
    await list(member);
    await second.db.update(staff).set({ disabled: true }).where(eq(staff.id, member.member.id));
    expect((await member.json(LIST)).status).toBe(401);
  });

  it('follows a change of sub-organizations made on the other server', async () => {
    const inB = await createTransaction(t.db, { orgId: t.orgId, subOrgId: subB });
    const member = await t.signIn('viewer', { subOrgIds: [subA] });
    expect((await list(member)).results.map((r) => r.id)).not.toContain(inB.id);
    await second.db
      .update(staff)
      .set({ subOrgIds: [subA, subB] })
      .where(eq(staff.id, member.member.id));
    expect((await list(member)).results.map((r) => r.id)).toContain(inB.id);
  });

  it('expires an idle session though nothing was written', async () => {
    const member = await t.signIn('viewer');
    await list(member);
    await list(member);
    t.clock.advance(31 * 60_000);
    const res = await member.json(LIST);
    expect(res.status).toBe(401);
    expect((res.body as { message: string }).message).toMatch(/30 minutes/);
    t.clock.advance(-31 * 60_000);
  });

  it('refuses a session revoked by a direct database write', async () => {
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

  it('never answers a request with a snapshot taken before it asked, and shares the next one', async () => {
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
  });
});
