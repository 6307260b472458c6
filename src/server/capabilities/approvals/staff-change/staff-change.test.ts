import { describe, expect } from 'vitest';
import { ApprovalSignatures } from '#contract/approval-signature.ts';
import { StaffChangeAnswer } from '#contract/auth.ts';
import { pathOf } from '#contract/endpoint.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { approvalSignatures } from '#contract/endpoints/approval-signatures.ts';
import { approvalInbox } from '#contract/endpoints/approvals.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { eq } from 'drizzle-orm';
import { getStaff } from '../../../auth/staff.store.ts';
import { approvalRequirements } from '../../../db/schema/console.ts';
import { appTestWith } from '../../../test/app-test.ts';
import { signIntent, withPasskey } from '../../../test/signed-intents.ts';
import type { StaffSession } from '../../../test/staff-session.ts';

/**
 * A staff change is an approvable kind the console holds: it waits in the
 * inbox of the admins who may decide it, with a card saying whom it changes
 * and how; it is decided through the core, signed by a member with a
 * passkey, whichever route the decision comes by; and it is applied once.
 */

const appTest = appTestWith();

// The app is made before the first test, under the set-up limit: made by the first test,
// it took most of that test's 60 s on a loaded machine.
appTest.beforeAll(async ({ t: _t }) => {});

const send = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

async function proposeRole(by: StaffSession, staffId: string, role: string): Promise<string> {
  const res = await by.json(`/api/console/staff/${staffId}/`, send('PATCH', { role }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const answer = StaffChangeAnswer.parse(res.body);
  if (!answer.proposal) throw new Error('the change was applied at once');
  return answer.proposal.id;
}

async function inboxIds(who: StaffSession): Promise<string[]> {
  const res = await who.json(`${pathOf(approvalInbox, {})}?limit=100`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { results: Array<{ id: string }> }).results.map((r) => r.id);
}

describe('a staff change on the approval core', () => {
  appTest(
    "waits in another admin's inbox with its card, and is decided there, signed",
    async ({ t }) => {
      const proposer = await t.signIn('admin', { name: 'Pat Proposer' });
      const ada = await withPasskey(t, 'Ada Staff Admin', 'admin');
      const member = await t.signIn('initiator', { name: 'Ivy Initiator' });
      const id = await proposeRole(proposer, member.member.id, 'approver');

      const inbox = await ada.session.json(`${pathOf(approvalInbox, {})}?limit=100`);
      expect(inbox.status, JSON.stringify(inbox.body)).toBe(200);
      const listed = (inbox.body as { results: Array<{ id: string }> }).results.find(
        (r) => r.id === id,
      );
      expect(listed).toMatchObject({
        kind: 'HELD',
        yours: false,
        card: {
          intent: {
            kind: 'STAFF_CHANGE',
            destination: { type: 'STAFF', id: member.member.id, name: 'Ivy Initiator' },
            change: {
              lines: expect.arrayContaining([
                { label: 'Role', before: 'initiator', after: 'approver' },
              ]),
            },
          },
          status: { quorum: { required: 1 } },
        },
      });
      // Staff changes are admins' to decide: an approver's inbox never lists them.
      const approver = await t.signIn('approver');
      expect(await inboxIds(approver)).not.toContain(id);

      const signed = await ada.session.json(
        pathOf(decideApprovable, { entityId: id }),
        send('POST', { action: 'approve', intent: await signIntent(ada, id) }),
      );
      expect(signed.status, JSON.stringify(signed.body)).toBe(200);
      expect(signed.body).toMatchObject({ status: 'APPROVED' });
      expect((await getStaff(t.db, member.member.id))?.role).toBe('approver');
      expect(await inboxIds(ada.session)).not.toContain(id);

      const stored = await ada.session.json(pathOf(approvalSignatures, { entityId: id }));
      expect(stored.status, JSON.stringify(stored.body)).toBe(200);
      expect(ApprovalSignatures.parse(stored.body).signatures).toMatchObject([
        { decidedBy: 'Ada Staff Admin', valid: true, counts: true },
      ]);
    },
  );

  appTest(
    'an admin with a passkey cannot approve it unsigned on the staff route',
    async ({ t }) => {
      const proposer = await t.signIn('admin');
      const ada = await withPasskey(t, 'Ada Unsigned Admin', 'admin');
      const member = await t.signIn('initiator');
      const id = await proposeRole(proposer, member.member.id, 'admin');
      const unsigned = await ada.session.json(
        `/api/console/staff/proposals/${id}/decision/`,
        send('POST', { action: 'approve' }),
      );
      expect(unsigned.status, JSON.stringify(unsigned.body)).toBe(403);
      expect(unsigned.body).toMatchObject({ code: 'SIGNED_INTENT_REQUIRED' });
      expect((await getStaff(t.db, member.member.id))?.role).toBe('initiator');
    },
  );

  appTest(
    'a proposal filed before staff changes were held by the core is still decided once, on the staff route',
    async ({ t }) => {
      const proposer = await t.signIn('admin');
      const other = await t.signIn('admin');
      const member = await t.signIn('initiator');
      const id = await proposeRole(proposer, member.member.id, 'approver');
      // As a proposal made by an earlier version reads: its row, no frozen rule.
      await t.db.delete(approvalRequirements).where(eq(approvalRequirements.entityId, id));
      const decided = await other.json(
        `/api/console/staff/proposals/${id}/decision/`,
        send('POST', { action: 'approve' }),
      );
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      expect((await getStaff(t.db, member.member.id))?.role).toBe('approver');
      const again = await other.json(
        `/api/console/staff/proposals/${id}/decision/`,
        send('POST', { action: 'approve' }),
      );
      expect(again.status, JSON.stringify(again.body)).toBeGreaterThanOrEqual(400);
    },
  );

  appTest('the member it changes never decides it, nor sees it as theirs', async ({ t }) => {
    const proposer = await t.signIn('admin');
    const subject = await withPasskey(t, 'Sam Subject', 'admin');
    const id = await proposeResetOf(proposer, subject.session.member.id);
    const card = await subject.session.json(pathOf(approvalCard, { entityId: id }));
    expect(card.status, JSON.stringify(card.body)).toBe(200);
    const own = await subject.session.json(
      pathOf(decideApprovable, { entityId: id }),
      send('POST', { action: 'approve', intent: await signIntent(subject, id) }),
    );
    expect(own.status, JSON.stringify(own.body)).toBe(403);
    expect(own.body).toMatchObject({ code: 'FOUR_EYES' });
  });
});

async function proposeResetOf(by: StaffSession, staffId: string): Promise<string> {
  const res = await by.json(`/api/console/staff/${staffId}/second-factor-reset/`, send('POST'));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const answer = StaffChangeAnswer.parse(res.body);
  if (!answer.proposal) throw new Error('no proposal');
  return answer.proposal.id;
}
