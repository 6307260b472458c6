import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { ApprovalProgressList } from '#contract/approval-progress.ts';
import { NotificationDeliveryList, SmtpSettings } from '#contract/notifications.ts';
import { paths } from '#contract/paths.ts';
import { createSubOrg } from '../../test/fixtures.ts';
import { appTestWith } from '../../test/app-test.ts';
import { startChatReceiver, startSmtpServer } from '../../test/smtp.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import type { TestApp } from '../../test/test-app.ts';
import { approvalEvents } from '../../db/schema/console.ts';
import { liveSources } from '../live/index.ts';
import { createNotifier, namedSources, type Notifier } from './notifier.ts';

// Notifications through the real app and database, a real SMTP server and a chat receiver
// started here: what each member's inbox and the team's channel receive.
const appTest = appTestWith({ chatTargets: { allowPrivate: true } });

const BASE = 'https://console.example.test';
const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let chat: Awaited<ReturnType<typeof startChatReceiver>>;
beforeAll(async () => {
  [smtp, chat] = await Promise.all([startSmtpServer(), startChatReceiver()]);
});
afterAll(async () => {
  await Promise.all([smtp.close(), chat.close()]);
});

function notifierFor(t: TestApp, maxAttempts?: number): Notifier {
  return createNotifier({
    db: t.db,
    clock: t.clock,
    logger: pino({ level: 'silent' }),
    sources: namedSources(liveSources('sandbox', t.db, t.orgId)),
    baseUrl: () => BASE,
    targets: { allowPrivate: true },
    ...(maxAttempts ? { maxAttempts } : {}),
  });
}

async function configureSmtp(t: TestApp) {
  const res = await t.admin.json(
    '/api/console/notifications/smtp/',
    json('PUT', {
      host: '127.0.0.1',
      port: smtp.port,
      security: 'NONE',
      username: 'console',
      password: 'smtp-secret-password',
      fromAddress: 'console@example.test',
      enabled: true,
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
}

async function proposeAccount(by: StaffSession, subOrgId: string, accountNumber: string) {
  const res = await by.json(
    paths.bankAccounts(),
    json('POST', {
      paymentMethod: 'US_ACH',
      subOrgId,
      accountName: 'Notify LLC',
      accountNumber,
      routingNumber: '021000021',
      bankName: 'Bank',
      country: 'US',
    }),
  );
  expect([200, 201], JSON.stringify(res.body)).toContain(res.status);
  return res.body as { id: string };
}

async function decide(by: StaffSession, entityId: string, action: 'approve' | 'reject') {
  const message = await by.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  const res = await by.json(
    paths.approvalAction(approvalId),
    json('POST', { action, reason: 'checked' }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Runs the notifier until nothing is left to send now. */
async function drain(notifier: Notifier) {
  await notifier.derivePass();
  while ((await notifier.deliverPass()) > 0);
}

describe('notifications', () => {
  appTest(
    'an approval request reaches each eligible approver by email, linked to its page, and the team channel; never its initiator',
    async ({ t }) => {
      const subOrgId = (await createSubOrg(t.db, t.orgId)).id;
      const elsewhere = (await createSubOrg(t.db, t.orgId)).id;
      const notifier = notifierFor(t);
      await notifier.derivePass(); // the logs' heads: what happened before is not told
      await configureSmtp(t);
      const team = await t.admin.json(
        '/api/console/notifications/chat/',
        json('POST', { subOrgId, url: chat.url, format: 'SLACK', description: 'Treasury' }),
      );
      expect(team.status, JSON.stringify(team.body)).toBe(201);
      expect(JSON.stringify(team.body)).not.toContain('/hooks/team');

      const initiator = await t.signIn('initiator', { subOrgIds: [subOrgId] });
      const approverA = await t.signIn('approver', { subOrgIds: [subOrgId] });
      const approverB = await t.signIn('approver', { subOrgIds: [subOrgId] });
      const viewer = await t.signIn('viewer', { subOrgIds: [subOrgId] });
      const outsider = await t.signIn('approver', { subOrgIds: [elsewhere] });
      const before = smtp.mails.length;
      const account = await proposeAccount(initiator, subOrgId, '000111222333');

      await drain(notifier);

      // Who the item's page says may still approve: each of them, and no one else, is written to.
      const progress = await t.admin.json(
        `/api/console/approval_progress/?entityIds=${account.id}`,
      );
      const [item] = ApprovalProgressList.parse(progress.body).results;
      const staff = (await t.admin.json('/api/console/staff/?limit=100')).body as {
        results: Array<{ id: string; email: string }>;
      };
      const emailOf = new Map(staff.results.map((s) => [s.id, s.email]));
      const eligible = (item?.stillEligible ?? []).map((m) => emailOf.get(m.id));
      const mails = smtp.mails.slice(before);
      const recipients = mails.flatMap((m) => m.to);
      expect(new Set(recipients)).toEqual(new Set(eligible));
      expect(recipients).toEqual(
        expect.arrayContaining([approverA.member.email, approverB.member.email]),
      );
      for (const nobody of [initiator, viewer, outsider])
        expect(recipients).not.toContain(nobody.member.email);
      expect(recipients.length).toBe(new Set(recipients).size);
      for (const mail of mails) {
        expect(mail.from).toBe('console@example.test');
        expect(mail.subject).toBe(`Bank account ${account.id} needs your approval`);
        expect(mail.text).toContain(`${BASE}/bank-accounts/${account.id}`);
        // Never the full account number, never a link that decides.
        expect(mail.raw).not.toContain('000111222333');
        expect(mail.text).not.toMatch(/approve\?|token=/i);
      }

      expect(chat.bodies).toContainEqual({
        text: `*Bank account ${account.id} needs your approval*\n<${BASE}/bank-accounts/${account.id}|Open in the console>`,
      });

      // The delivery log: a row per message, sent, with its channel, recipient and event.
      const log = NotificationDeliveryList.parse(
        (await t.admin.json('/api/console/notifications/deliveries/')).body,
      );
      const rows = log.results.filter((r) => r.link.endsWith(`/bank-accounts/${account.id}`));
      expect(
        rows
          .filter((r) => r.channel === 'EMAIL')
          .map((r) => r.recipient)
          .sort(),
      ).toEqual([...recipients].sort());
      expect(rows.filter((r) => r.channel === 'CHAT')).toHaveLength(1);
      for (const row of rows)
        expect(row).toMatchObject({
          status: 'SENT',
          attempts: 1,
          event: 'NEEDS_APPROVAL',
          lastError: null,
        });

      // Decided: the initiator hears of it, once, however many passes run.
      await decide(approverA, account.id, 'approve');
      await drain(notifier);
      await drain(notifier);
      const told = smtp.mails.filter(
        (m) => m.to.includes(initiator.member.email) && m.subject.includes('was approved'),
      );
      expect(told).toHaveLength(1);
      expect(told[0]?.text).toContain(`${BASE}/bank-accounts/${account.id}`);
    },
  );

  appTest(
    'a declined item is told to its initiator by email, linked to its page, and to the team channel',
    async ({ t }) => {
      const subOrgId = (await createSubOrg(t.db, t.orgId)).id;
      const notifier = notifierFor(t);
      await notifier.derivePass();
      await configureSmtp(t);
      const team = await t.admin.json(
        '/api/console/notifications/chat/',
        json('POST', { subOrgId, url: chat.url, format: 'SLACK', description: 'Payables' }),
      );
      expect(team.status, JSON.stringify(team.body)).toBe(201);
      const initiator = await t.signIn('initiator', { subOrgIds: [subOrgId] });
      const approver = await t.signIn('approver', { subOrgIds: [subOrgId] });
      const account = await proposeAccount(initiator, subOrgId, '000444555666');
      await drain(notifier);

      await decide(approver, account.id, 'reject');
      await drain(notifier);
      const told = smtp.mails.filter(
        (m) => m.to.includes(initiator.member.email) && m.subject.includes(account.id),
      );
      expect(told.map((m) => m.subject)).toEqual([`Bank account ${account.id} was declined`]);
      expect(told[0]?.text).toContain(`${BASE}/bank-accounts/${account.id}`);
      expect(told[0]?.text).not.toMatch(/approve\?|token=/i);
      expect(chat.bodies).toContainEqual({
        text: `*Bank account ${account.id} was declined*\n<${BASE}/bank-accounts/${account.id}|Open in the console>`,
      });
    },
  );

  appTest(
    'a message the mail server refuses is retried with back-off, then marked failed; retry sends it again',
    async ({ t }) => {
      const subOrgId = (await createSubOrg(t.db, t.orgId)).id;
      const notifier = notifierFor(t, 3);
      await notifier.derivePass();
      await configureSmtp(t);
      const initiator = await t.signIn('initiator', { subOrgIds: [subOrgId] });
      const approver = await t.signIn('approver', { subOrgIds: [subOrgId] });
      smtp.state.refuse = true;
      try {
        const account = await proposeAccount(initiator, subOrgId, '000222333444');
        await drain(notifier);
        const mine = async () => {
          const log = NotificationDeliveryList.parse(
            (await t.admin.json('/api/console/notifications/deliveries/')).body,
          );
          const row = log.results.find(
            (r) => r.recipient === approver.member.email && r.link.endsWith(account.id),
          );
          if (!row) throw new Error('no log row for the approver');
          return row;
        };
        const first = await mine();
        expect(first).toMatchObject({ status: 'PENDING', attempts: 1 });
        expect(first.lastError).toMatch(/451|try again/);
        expect(Date.parse(first.nextAttemptAt ?? '') - t.clock.now().getTime()).toBe(30_000);

        // Not before its time; then 30 s, then 60 s more.
        await drain(notifier);
        expect((await mine()).attempts).toBe(1);
        t.clock.advance(30_000);
        await drain(notifier);
        expect(await mine()).toMatchObject({ status: 'PENDING', attempts: 2 });
        t.clock.advance(60_000);
        await drain(notifier);
        const failed = await mine();
        expect(failed).toMatchObject({ status: 'FAILED', attempts: 3, nextAttemptAt: null });

        smtp.state.refuse = false;
        const retried = await t.admin.json(
          `/api/console/notifications/deliveries/${failed.id}/retry/`,
          json('POST', {}),
        );
        expect(retried.status, JSON.stringify(retried.body)).toBe(200);
        expect(retried.body).toMatchObject({ status: 'PENDING', attempts: 0 });
        await drain(notifier);
        expect(await mine()).toMatchObject({ status: 'SENT', attempts: 1, lastError: null });
        expect(smtp.mails.some((m) => m.to.includes(approver.member.email))).toBe(true);
      } finally {
        smtp.state.refuse = false;
      }
    },
  );

  appTest(
    "a member's preferences hold: email off, or an event left out, sends them nothing",
    async ({ t }) => {
      const subOrgId = (await createSubOrg(t.db, t.orgId)).id;
      const notifier = notifierFor(t);
      await notifier.derivePass();
      await configureSmtp(t);
      const initiator = await t.signIn('initiator', { subOrgIds: [subOrgId] });
      const quiet = await t.signIn('approver', { subOrgIds: [subOrgId] });
      const picky = await t.signIn('approver', { subOrgIds: [subOrgId] });
      const keen = await t.signIn('approver', { subOrgIds: [subOrgId] });
      const set = async (who: StaffSession, body: unknown) => {
        const res = await who.json('/api/console/account/notifications/', json('PUT', body));
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      };
      await set(quiet, { events: ['NEEDS_APPROVAL'], email: false, digest: false, digestHour: 8 });
      await set(picky, { events: ['FAILED'], email: true, digest: false, digestHour: 8 });
      expect((await picky.json('/api/console/account/notifications/')).body).toEqual({
        events: ['FAILED'],
        email: true,
        digest: false,
        digestHour: 8,
      });
      const refused = await picky.json(
        '/api/console/account/notifications/',
        json('PUT', { events: ['SOMETHING'], email: 'yes', digest: false, digestHour: 25 }),
      );
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toMatch(/events/);
      expect(JSON.stringify(refused.body)).toMatch(
        /digestHour must be a whole number from 0 to 23/,
      );

      const before = smtp.mails.length;
      await proposeAccount(initiator, subOrgId, '000333444555');
      await drain(notifier);
      const recipients = smtp.mails.slice(before).flatMap((m) => m.to);
      expect(recipients).toContain(keen.member.email);
      expect(recipients).not.toContain(quiet.member.email);
      expect(recipients).not.toContain(picky.member.email);
    },
  );

  appTest(
    'the SMTP password is kept on the server: never answered, kept when left out; only admins of every sub-organization manage it',
    async ({ t, approver }) => {
      const saved = await configureSmtp(t);
      expect(JSON.stringify(saved.body)).not.toContain('smtp-secret-password');
      expect(SmtpSettings.parse(saved.body)).toMatchObject({
        passwordSet: true,
        username: 'console',
      });
      const again = await t.admin.json(
        '/api/console/notifications/smtp/',
        json('PUT', {
          host: '127.0.0.1',
          port: smtp.port,
          security: 'NONE',
          username: 'console',
          fromAddress: 'console@example.test',
          enabled: true,
        }),
      );
      expect(SmtpSettings.parse(again.body).passwordSet).toBe(true);
      const read = await t.admin.json('/api/console/notifications/smtp/');
      expect(JSON.stringify(read.body)).not.toContain('smtp-secret-password');

      const bad = await t.admin.json(
        '/api/console/notifications/smtp/',
        json('PUT', {
          host: '',
          port: 70000,
          security: 'SSL',
          fromAddress: 'nobody',
          enabled: true,
        }),
      );
      expect(bad.status).toBe(400);
      const fields = (bad.body as { fields: Array<{ field: string }> }).fields.map((f) => f.field);
      expect(fields).toEqual(expect.arrayContaining(['host', 'port', 'security', 'fromAddress']));

      const test = await t.admin.json(
        '/api/console/notifications/smtp/test/',
        json('POST', { to: 'someone@example.test' }),
      );
      expect(test.body).toMatchObject({ sent: true });
      expect(smtp.mails.some((m) => m.to.includes('someone@example.test'))).toBe(true);

      expect((await approver.json('/api/console/notifications/smtp/')).status).toBe(403);
      const subOrgId = (await createSubOrg(t.db, t.orgId)).id;
      const heldAdmin = await t.signIn('admin', { subOrgIds: [subOrgId] });
      expect((await heldAdmin.json('/api/console/notifications/smtp/')).status).toBe(403);
      expect((await heldAdmin.json('/api/console/notifications/deliveries/')).status).toBe(403);
    },
  );

  appTest(
    'a member on the daily digest is written once, at their hour, with every item that waited',
    async ({ t }) => {
      const subOrgId = (await createSubOrg(t.db, t.orgId)).id;
      const notifier = notifierFor(t);
      await notifier.derivePass();
      await configureSmtp(t);
      const initiator = await t.signIn('initiator', { subOrgIds: [subOrgId] });
      const reader = await t.signIn('approver', { subOrgIds: [subOrgId] });
      const hour = (t.clock.now().getUTCHours() + 2) % 24;
      const set = await reader.json(
        '/api/console/account/notifications/',
        json('PUT', { events: ['NEEDS_APPROVAL'], email: true, digest: true, digestHour: hour }),
      );
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      const first = await proposeAccount(initiator, subOrgId, '000444555666');
      const second = await proposeAccount(initiator, subOrgId, '000555666777');
      await drain(notifier);
      const toReader = () => smtp.mails.filter((m) => m.to.includes(reader.member.email));
      expect(toReader()).toHaveLength(0);

      t.clock.advance(2 * 60 * 60 * 1000);
      await drain(notifier);
      const digests = toReader();
      expect(digests).toHaveLength(1);
      expect(digests[0]?.subject).toBe('Your daily digest: 2 items need your approval');
      expect(digests[0]?.text).toContain(`${BASE}/bank-accounts/${first.id}`);
      expect(digests[0]?.text).toContain(`${BASE}/bank-accounts/${second.id}`);
    },
  );

  appTest(
    'an event whose rule is not written yet holds up no other item’s notices, and is told once it is',
    async ({ t }) => {
      const notifier = notifierFor(t);
      await notifier.derivePass();
      await configureSmtp(t);
      const proposer = await t.signIn('admin');
      const reader = await t.signIn('admin');
      const member = await t.signIn('initiator');
      // A proposal whose request has not yet frozen its rule (it is written just after the event).
      await t.db.insert(approvalEvents).values({
        kind: 'PROPOSED',
        entityType: 'STAFF_CHANGE',
        entityId: 'ghost-change',
        subOrgId: null,
        status: 'PENDING',
        at: t.clock.now(),
      });
      // Behind it in the same log: a role change an admin proposes, for another admin to decide.
      const proposed = await proposer.json(
        `/api/console/staff/${member.member.id}/`,
        json('PATCH', { role: 'approver' }),
      );
      expect(proposed.status, JSON.stringify(proposed.body)).toBe(200);
      const behind = (proposed.body as { proposal?: { id: string } }).proposal?.id ?? '';
      expect(behind).not.toBe('');
      const toReader = (entityId: string) =>
        smtp.mails.filter(
          (m) => m.to.includes(reader.member.email) && m.subject.includes(` ${entityId} `),
        );

      // The item behind it is told at once, and once however many passes read it again.
      await drain(notifier);
      await drain(notifier);
      expect(toReader(behind)).toHaveLength(1);
      expect(toReader('ghost-change')).toHaveLength(0);

      // Past the grace period the default rule stands in for the one never written.
      t.clock.advance(11_000);
      await drain(notifier);
      await drain(notifier);
      expect(toReader('ghost-change')).toHaveLength(1);
      expect(toReader(behind)).toHaveLength(1);
    },
  );
});
