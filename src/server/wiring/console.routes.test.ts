import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import {
  AuditListResponse,
  StaffChangeAnswer,
  StaffMember,
  type AuditEntry,
} from '#contract/auth.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { createApp } from '../app.ts';
import { signRequestToken } from '../protocol/api-token.ts';
import { createStaff } from '../auth/staff.store.ts';
import { createTestApiUser } from '../test/api-client.ts';
import { createSandboxBackend } from './sandbox-backend.ts';
import { createLogger } from '../logger.ts';
import { createBankAccount, createSubOrg } from '../test/fixtures.ts';
import { TEST_ORIGIN, signInStaff } from '../test/staff-session.ts';
import { appTest } from '../test/app-test.ts';
import type { TestApp } from '../test/test-app.ts';

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

async function auditFor(t: TestApp, entityId: string): Promise<AuditEntry[]> {
  const res = await t.admin.json(`/api/console/audit/?entityId=${entityId}`);
  expect(res.status).toBe(200);
  return AuditListResponse.parse(res.body).results;
}

describe('staff management', () => {
  appTest(
    'lets an admin create, list, change and disable members, each change audited',
    async ({ t }) => {
      const created = await t.admin.json(
        '/api/console/staff/',
        json('POST', {
          email: 'New.Hire@Bank.test',
          name: 'New Hire',
          role: 'viewer',
        }),
      );
      expect(created.status).toBe(201);
      const answer = StaffChangeAnswer.parse(created.body);
      const member = StaffMember.parse(answer.member);
      expect(member).toMatchObject({
        email: 'new.hire@bank.test',
        role: 'viewer',
        subOrgIds: null,
        disabled: false,
      });
      expect(JSON.stringify(created.body)).not.toMatch(/password|hash/i);

      const list = await t.admin.json('/api/console/staff/');
      expect((list.body as { results: StaffMember[] }).results.map((m) => m.id)).toContain(
        member.id,
      );

      const changed = await t.admin.json(
        `/api/console/staff/${member.id}/`,
        json('PATCH', { role: 'initiator', subOrgIds: ['sub-1'], disabled: true }),
      );
      expect(changed.status).toBe(200);
      expect(changed.body).toMatchObject({ outcome: 'applied' });
      expect(StaffChangeAnswer.parse(changed.body).member).toMatchObject({
        role: 'initiator',
        subOrgIds: ['sub-1'],
        disabled: true,
      });

      const entries = await auditFor(t, member.id);
      expect(entries.map((e) => [e.action, e.outcome, e.actorId])).toEqual([
        ['staff.disable', 'success', t.admin.member.id],
        ['staff.create', 'success', t.admin.member.id],
      ]);
      expect(entries[0]?.summary).toMatch(/role → initiator; sub-orgs → sub-1; disabled/);
      expect(JSON.stringify(entries)).not.toContain(answer.setup?.token);
    },
  );

  appTest(
    'refuses a duplicate email (409), a password the admin chose (400) and an admin disabling themselves (409)',
    async ({ t }) => {
      const body = { email: 'dup@bank.test', name: 'Dup', role: 'viewer' };
      expect((await t.admin.json('/api/console/staff/', json('POST', body))).status).toBe(201);
      const dup = await t.admin.json(
        '/api/console/staff/',
        json('POST', { ...body, email: 'DUP@bank.test' }),
      );
      expect(dup.status).toBe(409);
      const short = await t.admin.json(
        '/api/console/staff/',
        json('POST', { ...body, email: 'x@bank.test', password: 'long enough pw' }),
      );
      // The member chooses their own password (a set-up code): none is taken from the admin.
      expect(short.status).toBe(400);
      expect(ApiErrorBody.parse(short.body).message).toMatch(/password/);
      const self = await t.admin.json(
        `/api/console/staff/${t.admin.member.id}/`,
        json('PATCH', { disabled: true }),
      );
      expect(self.status).toBe(409);
      expect(ApiErrorBody.parse(self.body).code).toBe('SELF_LOCKOUT');
      expect(
        (await t.admin.json('/api/console/staff/no-such-id/', json('PATCH', { name: 'X' }))).status,
      ).toBe(404);
    },
  );
});

describe('the audit log', () => {
  appTest(
    'pages newest first with a keyset cursor and filters by actor, action and outcome',
    async ({ t }) => {
      const viewer = await t.signIn('viewer');
      for (let i = 0; i < 3; i += 1) {
        // Refused by role: each refusal is recorded as denied.
        expect((await viewer.request(paths.bankAccounts(), json('POST', {}))).status).toBe(403);
      }
      const first = await t.admin.json(`/api/console/audit/?actorId=${viewer.member.id}&limit=2`);
      const page1 = AuditListResponse.parse(first.body);
      expect(page1.results).toHaveLength(2);
      expect(page1.hasNext).toBe(true);
      expect(page1.results[0]).toMatchObject({
        actorType: 'STAFF',
        actorName: viewer.member.name,
        action: 'bank_account.create',
        outcome: 'denied',
        entityType: 'BANK_ACCOUNT',
      });
      expect(page1.results[0]?.summary).toMatch(/403 FORBIDDEN_ROLE/);
      expect(page1.results[0]?.requestId).toMatch(/[0-9a-f-]{36}/);
      const second = await t.admin.json(
        `/api/console/audit/?actorId=${viewer.member.id}&limit=2&cursor=${page1.nextCursor ?? ''}`,
      );
      const page2 = AuditListResponse.parse(second.body);
      expect(page2.results).toHaveLength(1);
      expect(page2.hasNext).toBe(false);
      const ids = [...page1.results, ...page2.results].map((e) => Number(e.id));
      expect(ids).toEqual([...ids].sort((a, b) => b - a));

      const denied = await t.admin.json(
        `/api/console/audit/?outcome=denied&action=bank_account.create&limit=100`,
      );
      expect(AuditListResponse.parse(denied.body).results.length).toBeGreaterThanOrEqual(3);
      expect((await t.admin.json('/api/console/audit/?outcome=maybe')).status).toBe(400);
      expect((await t.admin.json('/api/console/audit/?cursor=bogus')).status).toBe(400);
    },
  );

  appTest('is append-only: the database refuses UPDATE and DELETE', async ({ t }) => {
    await expect(
      t.db.execute(sql`update console.audit_log set summary = 'rewritten'`),
    ).rejects.toThrow();
    await expect(t.db.execute(sql`delete from console.audit_log`)).rejects.toThrow();
  });
});

describe('account numbers', () => {
  appTest(
    'are masked for staff in lists and gets; the reveal shows them once, audited, to allowed roles',
    async ({ t }) => {
      const subOrg = await createSubOrg(t.db, t.orgId);
      const account = await createBankAccount(t.db, {
        orgId: t.orgId,
        subOrgId: subOrg.id,
        accountNumber: '987654321012',
        routingNumber: '021000021',
      });
      const list = await t.admin.json(`${paths.bankAccounts()}?subOrgId=${subOrg.id}`);
      expect(JSON.stringify(list.body)).not.toContain('987654321012');
      expect(list.body).toMatchObject({
        results: [{ accountNumber: '•••• 1012', routingNumber: '•••• 0021' }],
      });
      const one = await t.admin.json(paths.bankAccount(account.id));
      expect(one.body).toMatchObject({ accountNumber: '•••• 1012' });

      const initiator = await t.signIn('initiator');
      const reveal = { method: 'POST' };
      const revealed = await initiator.json(
        `/api/console/bank_accounts/${account.id}/reveal/`,
        reveal,
      );
      expect(revealed.status).toBe(200);
      expect(revealed.body).toEqual({ accountNumber: '987654321012', routingNumber: '021000021' });

      const viewer = await t.signIn('viewer');
      const refused = await viewer.json(`/api/console/bank_accounts/${account.id}/reveal/`, reveal);
      expect(refused.status).toBe(403);
      expect(ApiErrorBody.parse(refused.body).code).toBe('FORBIDDEN_ROLE');

      const outside = await t.signIn('admin', { subOrgIds: ['some-other-sub-org'] });
      expect(
        (await outside.json(`/api/console/bank_accounts/${account.id}/reveal/`, reveal)).status,
      ).toBe(404);

      const entries = await auditFor(t, account.id);
      expect(entries.map((e) => [e.action, e.outcome, e.actorId])).toEqual([
        ['bank_account.reveal', 'failed', outside.member.id],
        ['bank_account.reveal', 'denied', viewer.member.id],
        ['bank_account.reveal', 'success', initiator.member.id],
      ]);
      expect(entries[2]?.summary).toBe('Revealed account •••• 1012');
      expect(JSON.stringify(entries)).not.toContain('987654321012');
    },
  );
});

describe('API clients', () => {
  appTest(
    'get the full numbers the custody API defines, and never fall back to a session cookie',
    async ({ t }) => {
      const subOrg = await createSubOrg(t.db, t.orgId);
      await createBankAccount(t.db, {
        orgId: t.orgId,
        subOrgId: subOrg.id,
        accountNumber: '123412341234',
      });
      const user = await createTestApiUser(t, 'matrix bot');
      const url = `${paths.bankAccounts()}?subOrgId=${subOrg.id}`;
      const signed = (path: string) => ({
        'Api-Key': user.apiKey,
        Authorization: `Bearer ${signRequestToken({ apiKey: user.apiKey, privateKey: user.privateKeyHex, urlPath: path, now: user.clock.now() })}`,
      });
      const res = await t.anonymous(url, { headers: signed(url) });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ results: [{ accountNumber: '123412341234' }] });

      // A bad Api-Key is refused even alongside a valid staff session.
      const mixed = await t.anonymous(url, {
        headers: { 'Api-Key': 'not-a-key', Authorization: 'Bearer x', cookie: t.admin.cookie },
      });
      expect(mixed.status).toBe(401);
    },
  );

  appTest('have their mutations audited as API_USER', async ({ t }) => {
    const user = await createTestApiUser(t, 'audited bot');
    const body = {
      paymentMethod: 'US_ACH',
      accountName: 'Bot',
      accountNumber: '99990000',
      routingNumber: '021000021',
      bankName: 'Bank',
      country: 'US',
    };
    const url = paths.bankAccounts();
    const token = signRequestToken({
      apiKey: user.apiKey,
      privateKey: user.privateKeyHex,
      urlPath: url,
      body,
      now: user.clock.now(),
    });
    const res = await t.anonymous(url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Api-Key': user.apiKey,
        Authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(body),
    });
    expect(res.status).toBeLessThan(300);
    const { id } = (await res.json()) as { id: string };
    const [entry] = await auditFor(t, id);
    expect(entry).toMatchObject({
      actorType: 'API_USER',
      actorId: user.id,
      action: 'bank_account.create',
      outcome: 'success',
    });
    expect(entry?.summary).toContain('•••• 0000');
    expect(JSON.stringify(entry)).not.toContain('99990000');
  });
});

describe('log redaction', () => {
  appTest(
    'never writes a full account number, a session cookie, a CSRF token or a password',
    async ({ t }) => {
      let output = '';
      const stream = new Writable({
        write(chunk: Buffer, _enc, done) {
          output += chunk.toString();
          done();
        },
      });
      const app = createApp({
        config: { staticDir: '/nonexistent' },
        backend: createSandboxBackend({ db: t.db, orgId: t.orgId }),
        database: t.database,
        logger: createLogger('trace', stream),
        auth: { db: t.db, clock: t.clock },
      });
      const password = 'redaction test passphrase';
      await createStaff(
        t.db,
        // A role signed in by the password alone (an admin would set up a second factor first).
        { email: 'logs@bank.test', name: 'Logs', role: 'initiator', password },
        { now: t.clock.now() },
      );
      const login = await app.request('/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: TEST_ORIGIN },
        body: JSON.stringify({ email: 'logs@bank.test', password }),
      });
      expect(login.status).toBe(200);
      const token = (login.headers.get('set-cookie') ?? '').split(';')[0]?.split('=')[1] ?? '';
      const { csrfToken } = (await login.json()) as { csrfToken: string };
      const member = await signInStaff(app, t.db, t.clock, { role: 'admin' });
      const created = await member.json(
        paths.bankAccounts(),
        json('POST', {
          paymentMethod: 'US_ACH',
          accountName: 'Logged Nowhere',
          accountNumber: '55667788990011',
          routingNumber: '021000021',
          bankName: 'Bank',
          country: 'US',
        }),
      );
      expect(created.status).toBeLessThan(300);
      const account = created.body as { id: string };
      await member.request(paths.bankAccounts());
      await member.request(`/api/console/bank_accounts/${account.id}/reveal/`, { method: 'POST' });
      // A refused create logs its error too.
      await member.request(paths.bankAccounts(), json('POST', { accountNumber: '55667788990011' }));

      expect(output).toContain('"msg":"request"');
      for (const secret of [
        '55667788990011',
        token,
        csrfToken,
        member.cookie.split('=')[1] ?? '',
        member.csrfToken,
        password,
      ]) {
        expect(secret.length).toBeGreaterThan(8);
        expect(output).not.toContain(secret);
      }
    },
  );
});
