import { describe, expect } from 'vitest';
import { AuditListResponse, type AuditEntry } from '#contract/auth.ts';
import { AUDIT_REASON_HEADER } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { createStaff } from '../auth/staff.store.ts';
import { createContact, createEther, createSubOrg, createVault } from '../test/fixtures.ts';
import { TEST_ORIGIN } from '../test/staff-session.ts';
import { appTestWith } from '../test/app-test.ts';
import type { TestApp } from '../test/test-app.ts';

// What lands in the audit log for sign-in and custody mutations: who, what, outcome, request id.
// Ether priced, so that an allowed create reaches the engine and succeeds, not just passes auth.
const appTest = appTestWith({}, (t: TestApp) => createEther(t.db));

async function audit(t: TestApp, query: string): Promise<AuditEntry[]> {
  const res = await t.admin.json(`/api/console/audit/?limit=100&${query}`);
  expect(res.status).toBe(200);
  return AuditListResponse.parse(res.body).results;
}

const login = (t: TestApp, email: string, password: string) =>
  t.anonymous('/auth/login', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Origin: TEST_ORIGIN,
      'X-Request-Id': `login-${password.length}`,
    },
    body: JSON.stringify({ email, password }),
  });

describe('audit trail', () => {
  appTest('records sign-in success and failure and sign-out, never the password', async ({ t }) => {
    const member = await createStaff(
      t.db,
      { email: 'trail@bank.test', name: 'Trail', role: 'viewer', password: 'the right passphrase' },
      { now: t.clock.now() },
    );
    const wrong = await login(t, 'trail@bank.test', 'the wrong passphrase!');
    expect(wrong.status).toBe(401);
    const ok = await login(t, 'trail@bank.test', 'the right passphrase');
    expect(ok.status).toBe(200);
    const cookie = (ok.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const { csrfToken } = (await ok.json()) as { csrfToken: string };
    const out = await t.anonymous('/auth/logout', {
      method: 'POST',
      headers: { cookie, 'X-CSRF-Token': csrfToken, Origin: TEST_ORIGIN },
    });
    expect(out.status).toBe(204);

    const entries = await audit(t, `entityId=${member.id}`);
    expect(entries.map((e) => [e.action, e.outcome, e.actorType])).toEqual([
      ['auth.logout', 'success', 'STAFF'],
      ['auth.login', 'success', 'STAFF'],
      ['auth.login', 'failed', 'ANONYMOUS'],
    ]);
    // The server's own request id, the one its answer named; never the caller's X-Request-Id.
    expect(entries[2]?.requestId).toBe(wrong.headers.get('X-Request-Id'));
    expect(entries[2]?.requestId).not.toBe('login-21');
    expect(JSON.stringify(entries)).not.toMatch(/passphrase/);
    // An unknown email is recorded too, with no entity.
    await login(t, 'ghost@bank.test', 'whatever it is');
    const ghost = await audit(t, 'action=auth.login&outcome=failed');
    expect(ghost[0]).toMatchObject({ actorName: 'ghost@bank.test', entityId: null });
  });

  appTest(
    'records a transaction create with its id and a refused replacement with the reason',
    async ({ t }) => {
      const subOrg = await createSubOrg(t.db, t.orgId);
      const vault = await createVault(t.db, { orgId: t.orgId, subOrgId: subOrg.id }, [
        { asset: 'ETH', chain: 'ETHEREUM', amount: '5' },
      ]);
      const contact = await createContact(t.db, { orgId: t.orgId, subOrgId: subOrg.id });
      const initiator = await t.signIn('initiator', { name: 'Ines Initiator' });
      const created = await initiator.json(paths.transactions(), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          category: 'TRANSFER',
          source: { type: 'VAULT', id: vault.id },
          destination: { type: 'CONTACT', id: contact.id },
          blockChain: 'ETHEREUM',
          asset: 'ETH',
          amount: '0.5',
        }),
      });
      expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
      const { id } = created.body as { id: string };
      const replaced = await initiator.json(paths.replaceTransaction(), {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ transactionId: id }),
      });
      expect(replaced.status).toBeGreaterThanOrEqual(400);

      const mine = await audit(t, `actorId=${initiator.member.id}`);
      expect(mine.map((e) => [e.action, e.outcome, e.actorName])).toEqual([
        ['transaction.replace', 'failed', 'Ines Initiator'],
        ['transaction.create', 'success', 'Ines Initiator'],
      ]);
      expect(mine[1]).toMatchObject({ entityType: 'TRANSACTION', entityId: id });
      expect(mine[1]?.summary).toMatch(/TRANSFER 0\.5 ETH ETHEREUM created, status PENDING/);
      expect(mine[0]?.summary).toMatch(/^Refused with 4\d\d /);
    },
  );

  appTest(
    "records the written reason for skipping a contract call's preprocessing simulation",
    async ({ t }) => {
      const vault = await createVault(t.db, { orgId: t.orgId }, [
        { asset: 'ETH', chain: 'ETHEREUM', amount: '5' },
      ]);
      const initiator = await t.signIn('initiator', { name: 'Sam Skipper' });
      const call = (skip: boolean, reason?: string) =>
        initiator.json(paths.transactions(), {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            ...(reason ? { [AUDIT_REASON_HEADER]: encodeURIComponent(reason) } : {}),
          },
          body: JSON.stringify({
            category: 'CONTRACT_CALL',
            vaultId: vault.id,
            blockChain: 'ETHEREUM',
            data: { callData: '0xa9059cbb' },
            creationOptions: { skipPreprocessSimulation: skip },
          }),
        });
      expect((await call(true, 'Simulator down — vendor ticket #4411')).status).toBe(200);
      expect((await call(true)).status).toBe(200);
      expect((await call(false, 'ignored when nothing is skipped')).status).toBe(200);
      const mine = await audit(t, `actorId=${initiator.member.id}`);
      expect(mine.map((e) => e.summary)).toEqual([
        expect.not.stringMatching(/skipped|ignored/),
        expect.stringMatching(/; preprocessing simulation skipped, no reason given$/),
        expect.stringMatching(
          /; preprocessing simulation skipped, reason: "Simulator down — vendor ticket #4411"$/,
        ),
      ]);
    },
  );
});
