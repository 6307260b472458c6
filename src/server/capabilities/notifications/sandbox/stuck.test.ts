import { afterAll, beforeAll, describe, expect } from 'vitest';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { paths } from '#contract/paths.ts';
import { Transaction } from '#contract/transaction.ts';
import { engineTest } from '../../../test/engine-test.ts';
import {
  configureTestSmtp,
  drainNotifier,
  NOTIFY_BASE,
  testNotifier,
} from '../../../test/notifications.ts';
import { startChatReceiver, startSmtpServer } from '../../../test/smtp.ts';
import { signInStaff } from '../../../test/staff-session.ts';
import { addChatTarget } from '../store.ts';
import { stuckTransactions } from './stuck.ts';

// "Stuck" on the sandbox's test clock: a transaction left where it moves on its own (the
// simulator not run) is told to its initiator once the hour has passed, once for that status,
// by email to a real SMTP server and to the team's webhook; never to the member who approved it.

const HOUR = 60 * 60_000;
const MINUTE = 60_000;

const send = (method: string, body: unknown): RequestInit => ({
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

// The app and its vaults are made before the test, under the set-up limit: made by the test,
// they took most of its 60 s on a loaded machine.
engineTest.beforeAll(async ({ t: _t, f: _f }) => {});

describe('a stuck transaction', () => {
  engineTest(
    'is told to its initiator and the team once, after the hour, on the test clock; never to its approver',
    async ({ t, f }) => {
      const notifier = testNotifier(t, { scans: [stuckTransactions(t.db, HOUR)] });
      await notifier.derivePass(); // the logs' heads: what happened before is not told
      const as = (role: 'initiator' | 'approver', name: string) =>
        signInStaff(t.app, t.db, t.authClock, { role, name, subOrgIds: null });
      const ivy = await as('initiator', 'Ivy Initiator');
      const ada = await as('approver', 'Ada Approver');
      await configureTestSmtp(async (url, init) => {
        const res = await t.app.request(url, init);
        return { status: res.status, body: (await res.json()) as unknown };
      }, smtp.port);
      await addChatTarget(
        t.db,
        { subOrgId: null, url: chat.url, format: 'SLACK', description: 'Everyone' },
        ivy.member.id,
        t.clock.now(),
      );

      const made = await ivy.json(
        paths.transactions(),
        send('POST', {
          category: 'TRANSFER',
          source: { type: 'VAULT', id: f.treasury.id },
          destination: { type: 'CONTACT', id: f.contacts.eth.id },
          amount: '0.1',
          asset: 'ETH',
          blockChain: 'ETHEREUM',
        }),
      );
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const id = Transaction.parse(made.body).id ?? '';
      expect(id).not.toBe('');
      const message = await ada.json(`${paths.approvalMessage()}?entityId=${id}`);
      const { approvalId } = ApprovalMessageResponse.parse(message.body);
      const decided = await ada.json(
        paths.approvalAction(approvalId),
        send('POST', { action: 'approve' }),
      );
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      expect(await t.status(id)).toBe('APPROVED');
      await drainNotifier(notifier);

      const stuckMails = () =>
        smtp.mails.filter((m) => m.subject === `Transaction ${id} has not moved`);
      const stuckChats = () =>
        chat.bodies.filter((b) => JSON.stringify(b).includes(`Transaction ${id} has not moved`));

      // Within the hour: nothing.
      t.clock.advance(59 * MINUTE);
      await drainNotifier(notifier);
      expect(stuckMails()).toHaveLength(0);

      // Past it: the initiator, with the transaction's link, and the team.
      t.clock.advance(2 * MINUTE);
      await drainNotifier(notifier);
      const [mail, ...more] = stuckMails();
      expect(more).toHaveLength(0);
      expect(mail?.to).toEqual([ivy.member.email]);
      expect(mail?.text).toContain('It has been APPROVED for more than 60 minutes.');
      expect(mail?.text).toContain(`${NOTIFY_BASE}/transactions/${id}`);
      // The approver was written to (asked to approve it), never told it is stuck.
      const toAda = smtp.mails.filter((m) => m.to.includes(ada.member.email));
      expect(toAda.map((m) => m.subject)).toEqual([`Transaction ${id} needs your approval`]);
      expect(stuckChats()).toEqual([
        {
          text: `*Transaction ${id} has not moved*\n<${NOTIFY_BASE}/transactions/${id}|Open in the console>`,
        },
      ]);

      // Still there a while later: told once for that status, not at every look.
      t.clock.advance(5 * MINUTE);
      await drainNotifier(notifier);
      expect(stuckMails()).toHaveLength(1);
      expect(stuckChats()).toHaveLength(1);

      // Moving again, to its end: nothing more.
      await t.run(HOUR);
      expect(await t.status(id)).toBe('COMPLETED');
      t.clock.advance(2 * HOUR);
      await drainNotifier(notifier);
      expect(stuckMails()).toHaveLength(1);
    },
  );
});
