import { afterAll, beforeAll, describe, expect } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { approvalInbox } from '#contract/endpoints/approvals.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { StaffChangeAnswer } from '#contract/auth.ts';
import { NotificationDeliveryList } from '#contract/notifications.ts';
import { DEFAULT_POLICY, type Policy } from '#contract/policies.ts';
import { statementsOf, writeVersion } from '../../db/read-cache.ts';
import { appTestWith } from '../../test/app-test.ts';
import { createSubOrg } from '../../test/fixtures.ts';
import {
  configureTestSmtp,
  drainNotifier,
  NOTIFY_BASE,
  testNotifier,
} from '../../test/notifications.ts';
import { startChatReceiver, startSmtpServer } from '../../test/smtp.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import type { TestApp } from '../../test/test-app.ts';

// "Policy changed" and "new admin" through the real app and database, to a real SMTP server
// and a team's chat receiver started here: who each reaches, and who never.
const appTest = appTestWith({ chatTargets: { allowPrivate: true } });

const send = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let chat: Awaited<ReturnType<typeof startChatReceiver>>;
beforeAll(async () => {
  [smtp, chat] = await Promise.all([startSmtpServer(), startChatReceiver()]);
});
afterAll(async () => {
  await Promise.all([smtp.close(), chat.close()]);
});

/** Every enabled member of the app, as the staff page lists them. */
async function everyone(t: TestApp) {
  const res = await t.admin.json('/api/console/staff/?limit=100');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (
    res.body as { results: Array<{ id: string; email: string; role: string; disabled: boolean }> }
  ).results.filter((m) => !m.disabled);
}

/** The org-wide team webhook, once per app. */
async function orgTeam(t: TestApp) {
  const res = await t.admin.json(
    '/api/console/notifications/chat/',
    send('POST', { subOrgId: null, url: chat.url, format: 'SLACK', description: 'Everyone' }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}

async function approveHeld(by: StaffSession, entityId: string) {
  const res = await by.json(
    pathOf(decideApprovable, { entityId }),
    send('POST', { action: 'approve' }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const stricter: Policy = {
  ...DEFAULT_POLICY,
  rules: [
    {
      id: 'big-accounts',
      name: 'Big accounts',
      match: { amountUsdAtLeast: '50000' },
      outcome: {
        action: 'ALLOW',
        approvals: 2,
        approvers: { kinds: ['admin'], memberIds: [] },
        apiClientMayApproveOwn: false,
      },
    },
  ],
};

describe('notifications of changes to the console itself', () => {
  appTest.beforeAll(async ({ t }) => {
    await configureTestSmtp((url, init) => t.admin.json(url, init), smtp.port);
    await orgTeam(t);
  });

  appTest(
    'a policy published reaches every admin and approver by email, and the team, with a link to the policies; never a viewer or initiator',
    async ({ t }) => {
      const notifier = testNotifier(t);
      await notifier.derivePass(); // the logs' heads: what happened before is not told
      const editor = await t.signIn('admin', { name: 'Eda Editor' });
      const reviewer = await t.signIn('admin', { name: 'Rae Reviewer' });
      const approver = await t.signIn('approver');
      const held = await t.signIn('approver', {
        subOrgIds: [(await createSubOrg(t.db, t.orgId)).id],
      });
      const initiator = await t.signIn('initiator');
      const viewer = await t.signIn('viewer');

      const saved = await editor.json(
        '/api/console/policies/accounts/draft/',
        send('PUT', { policy: stricter, revision: 0 }),
      );
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const inbox = await reviewer.json(`${pathOf(approvalInbox, {})}?limit=100`);
      const item = (inbox.body as { results: Array<{ id: string }> }).results.find((r) =>
        r.id.startsWith('policy-draft-'),
      );
      if (!item) throw new Error(`no policy publish in the inbox: ${JSON.stringify(inbox.body)}`);
      const mailsBefore = smtp.mails.length;
      const chatBefore = chat.bodies.length;
      await approveHeld(reviewer, item.id);
      await drainNotifier(notifier);

      const told = smtp.mails
        .slice(mailsBefore)
        .filter((m) => m.subject === 'An approval policy changed');
      const recipients = told.flatMap((m) => m.to);
      const expected = (await everyone(t))
        .filter((m) => m.role === 'admin' || m.role === 'approver')
        .map((m) => m.email);
      expect([...recipients].sort()).toEqual([...expected].sort());
      for (const member of [editor, reviewer, approver, held])
        expect(recipients).toContain(member.member.email);
      for (const nobody of [initiator, viewer])
        expect(recipients).not.toContain(nobody.member.email);
      for (const mail of told) expect(mail.text).toContain(`${NOTIFY_BASE}/policies`);

      expect(chat.bodies.slice(chatBefore)).toContainEqual({
        text: `*An approval policy changed*\n<${NOTIFY_BASE}/policies|Open in the console>`,
      });
      const log = NotificationDeliveryList.parse(
        (await t.admin.json('/api/console/notifications/deliveries/?limit=100')).body,
      );
      expect(
        log.results.filter((r) => r.event === 'POLICY_CHANGED' && r.channel === 'EMAIL'),
      ).toHaveLength(expected.length);
    },
  );

  appTest(
    'a member made admin is told to every other admin by email, and the team; never to the new admin, nor to an approver',
    async ({ t }) => {
      const notifier = testNotifier(t);
      await notifier.derivePass();
      const proposer = await t.signIn('admin', { name: 'Pat Proposer' });
      const second = await t.signIn('admin', { name: 'Sid Second' });
      const approver = await t.signIn('approver');
      const promoted = await t.signIn('initiator', { name: 'Nia Newadmin' });

      const proposed = await proposer.json(
        `/api/console/staff/${promoted.member.id}/`,
        send('PATCH', { role: 'admin' }),
      );
      expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
      const proposal = StaffChangeAnswer.parse(proposed.body).proposal;
      if (!proposal) throw new Error('the change was applied at once');
      const mailsBefore = smtp.mails.length;
      const chatBefore = chat.bodies.length;
      await approveHeld(second, proposal.id);
      await drainNotifier(notifier);

      const told = smtp.mails
        .slice(mailsBefore)
        .filter((m) => m.subject === 'A member became an admin');
      const recipients = told.flatMap((m) => m.to);
      const admins = (await everyone(t)).filter((m) => m.role === 'admin');
      expect(admins.map((m) => m.email)).toContain(promoted.member.email);
      expect([...recipients].sort()).toEqual(
        admins
          .map((m) => m.email)
          .filter((e) => e !== promoted.member.email)
          .sort(),
      );
      expect(recipients).toEqual(
        expect.arrayContaining([proposer.member.email, second.member.email]),
      );
      expect(recipients).not.toContain(promoted.member.email);
      expect(recipients).not.toContain(approver.member.email);
      for (const mail of told) {
        expect(mail.text).toContain('Nia Newadmin is now an admin.');
        expect(mail.text).toContain(`${NOTIFY_BASE}/staff`);
      }
      expect(chat.bodies.slice(chatBefore)).toContainEqual({
        text: `*A member became an admin*\n<${NOTIFY_BASE}/staff|Open in the console>`,
      });
    },
  );

  appTest(
    'a pass asks nothing of the logs while none is written after it found them told to their heads',
    async ({ t }) => {
      const notifier = testNotifier(t);
      await notifier.derivePass();
      await notifier.derivePass();
      const statements = await statementsOf(() => notifier.derivePass());
      // PGlite: the logs' write counts say so without a query. PostgreSQL: other servers write
      // the logs too, so each pass reads each log's cursor and head.
      if (writeVersion(t.db, ['console.approval_events']) !== undefined)
        expect(statements).toEqual([]);
      else expect(statements.length).toBeGreaterThan(0);
    },
  );
});
