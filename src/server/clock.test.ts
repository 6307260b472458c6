import { and, eq } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAccount, signIn } from '#contract/endpoints/session.ts';
import { listStaff } from '#contract/endpoints/staff.ts';
import { paths } from '#contract/paths.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { createApp } from './app.ts';
import { runDueSteps } from './custody/sandbox/engine/simulator.ts';
import { createSandboxBackend } from './wiring/sandbox-backend.ts';
import type { DatabaseHandle } from './db/client.ts';
import { auditLog, sessions, staff } from './db/schema/console.ts';
import {
  bankAccounts,
  changeRequests,
  transactionStatusEvents,
  transactions,
  vaultBalances,
} from './db/schema/sandbox.ts';
import { createEngineFixture, type EngineFixture } from './test/engine-test-app.ts';
import { createOrg } from './test/fixtures.ts';
import { actAsAdmin, signInStaff, TEST_ORIGIN, type StaffSession } from './test/staff-session.ts';
import { TestClock } from './test/test-clock.ts';
import { createTestDatabase } from './test/test-database.ts';

// One app whose auth and sandbox share one TestClock, set far from the real time: a row that
// took the database's now() or the machine's clock instead of the injected one would show it.
const clock = new TestClock('2031-05-06T07:08:09.123Z');
let database: DatabaseHandle;
let app: ReturnType<typeof createApp>;
let admin: StaffSession;
let approver: StaffSession;
let f: EngineFixture;

beforeAll(async () => {
  database = await createTestDatabase();
  const orgId = (await createOrg(database.db)).id;
  f = await createEngineFixture(database.db, orgId);
  app = createApp({
    config: { staticDir: '/nonexistent' },
    backend: createSandboxBackend({ db: database.db, orgId, clock }),
    database,
    logger: pino({ level: 'silent' }),
    auth: { db: database.db, clock, demoAccounts: false, trustProxy: false },
  });
  ({ admin } = await actAsAdmin(app, database.db, clock));
  approver = await signInStaff(app, database.db, clock, { role: 'approver' });
});
afterAll(() => database.close());

const db = () => database.db;
const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json', Origin: TEST_ORIGIN },
  body: JSON.stringify(body),
});

async function decide(entityId: string) {
  const message = await approver.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  const res = await approver.json(paths.approvalAction(approvalId), post({ action: 'approve' }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe('every stored timestamp comes from the injected clock', () => {
  it('a staff member, their session and the audit rows', async () => {
    const createdAt = clock.advance(61_000);
    const email = 'clocked@bank.test';
    const password = 'a clocked passphrase';
    const res = await admin.json(listStaff.path, post({ email, name: 'Clocked', role: 'viewer' }));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const made = res.body as { member: { createdAt: string }; setup: { token: string } };
    expect(made.member.createdAt).toBe(createdAt.toISOString());
    const [member] = await db().select().from(staff).where(eq(staff.email, email));
    expect(member?.createdAt).toEqual(createdAt);
    // The member chooses their own password with the set-up code.
    const setUp = await app.request(setUpAccount.path, post({ token: made.setup.token, password }));
    expect(setUp.status).toBe(200);

    const signedInAt = clock.advance(5_000);
    const login = await app.request(signIn.path, post({ email, password }));
    expect(login.status).toBe(200);
    const [session] = await db()
      .select()
      .from(sessions)
      .where(eq(sessions.staffId, member?.id ?? ''));
    expect(session).toMatchObject({ createdAt: signedInAt, lastSeenAt: signedInAt });

    const audited = await db()
      .select({ action: auditLog.action, at: auditLog.at })
      .from(auditLog)
      .where(eq(auditLog.entityId, member?.id ?? ''));
    expect(audited).toContainEqual({ action: 'staff.create', at: createdAt });
  });

  it('a bank account, its change request and the decision on it', async () => {
    const proposedAt = clock.advance(60_000);
    const res = await admin.json(
      paths.bankAccounts(),
      post({
        paymentMethod: 'US_ACH',
        accountName: 'Clocked LLC',
        accountNumber: '000111222333',
        routingNumber: '021000021',
        bankName: 'Bank',
        country: 'US',
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = (res.body as { id: string }).id;
    expect(res.body).toMatchObject({
      createdAt: proposedAt.toISOString(),
      updatedAt: proposedAt.toISOString(),
    });

    const decidedAt = clock.advance(90_000);
    await decide(id);
    const [account] = await db().select().from(bankAccounts).where(eq(bankAccounts.id, id));
    expect(account).toMatchObject({ createdAt: proposedAt, updatedAt: decidedAt });
    const [request] = await db()
      .select()
      .from(changeRequests)
      .where(eq(changeRequests.entityId, id));
    expect(request).toMatchObject({
      createdAt: proposedAt,
      updatedAt: decidedAt,
      decidedAt,
    });
  });

  it('a transaction, its status timeline and the balances it moves', async () => {
    const createdAt = clock.advance(60_000);
    const res = await admin.json(
      paths.transactions(),
      post({
        category: 'TRANSFER',
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'CONTACT', id: f.contacts.eth.id },
        amount: '0.25',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const id = (res.body as { id: string }).id;
    expect(res.body).toMatchObject({ createdAt: createdAt.toISOString() });

    const approvedAt = clock.advance(30_000);
    await decide(id);
    // Steps run at the times they fell due on this clock; an hour plays the lifecycle out.
    const ranUntil = clock.advance(3_600_000);
    await runDueSteps(db(), clock, { timeScale: 1 });

    const [row] = await db().select().from(transactions).where(eq(transactions.id, id));
    expect(row).toMatchObject({ status: 'COMPLETED', createdAt });
    const events = await db()
      .select({ status: transactionStatusEvents.status, at: transactionStatusEvents.at })
      .from(transactionStatusEvents)
      .where(eq(transactionStatusEvents.transactionId, id))
      .orderBy(transactionStatusEvents.id);
    expect(events.slice(0, 2)).toEqual([
      { status: 'PENDING', at: createdAt },
      { status: 'APPROVED', at: approvedAt },
    ]);
    for (const { at } of events.slice(2)) {
      expect(at.getTime()).toBeGreaterThanOrEqual(approvedAt.getTime());
      expect(at.getTime()).toBeLessThanOrEqual(ranUntil.getTime());
    }
    const completedAt = events.at(-1)?.at;
    expect(row?.updatedAt).toEqual(completedAt);

    // The source's ETH was held at signing and debited at completion: last touched then.
    const [balance] = await db()
      .select({ updatedAt: vaultBalances.updatedAt })
      .from(vaultBalances)
      .where(
        and(
          eq(vaultBalances.vaultId, f.treasury.id),
          eq(vaultBalances.asset, 'ETH'),
          eq(vaultBalances.chain, 'ETHEREUM'),
        ),
      );
    expect(balance?.updatedAt).toEqual(completedAt);
  });
});
