import { and, asc, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { ApprovalSignatures } from '#contract/approval-signature.ts';
import { pathOf } from '#contract/endpoint.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { approvalInboxCount } from '#contract/endpoints/approval-counts.ts';
import { approvalSignatures } from '#contract/endpoints/approval-signatures.ts';
import { approvalInbox } from '#contract/endpoints/approvals.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { approvalEvents, auditLog } from '../../db/schema/console.ts';
import { appTestWith } from '../app-test.ts';
import { createSubOrg } from '../fixtures.ts';
import { signIntent, withPasskey, type SignedIntent } from '../signed-intents.ts';
import type { StaffSession } from '../staff-session.ts';
import { PAYOUT, payoutKind } from './payout-kind.ts';

/**
 * A kind declared in one folder (payout-kind.ts) gets everything else from
 * the approval core, through the real app: its card and digest, the signed
 * intent, the frozen rule's quorum (never the proposer), its effect once, the
 * signature stored and checked again, the live events and the audit rows.
 */

const payouts = payoutKind();
const appTest = appTestWith({ approvableKinds: [payouts.kind] });

const send = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

const decide = (by: StaffSession, entityId: string, intent?: SignedIntent | { digest: string }) =>
  by.json(
    pathOf(decideApprovable, { entityId }),
    send({ action: 'approve', ...(intent ? { intent } : {}) }),
  );

describe('a test-only approvable kind', () => {
  appTest(
    'is proposed, shown, signed, counted to its quorum and applied once, by the core',
    async ({ t, subOrgId }) => {
      const pia = await withPasskey(t, 'Pia Proposes');
      const ada = await withPasskey(t, 'Ada Payout');
      const ben = await withPasskey(t, 'Ben Payout', 'admin');
      const payout = await payouts.propose(
        t.db,
        t.clock,
        { id: pia.session.member.id, role: 'approver' },
        {
          subOrgId,
          payee: 'Payee One Ltd',
          amount: '1250.5',
        },
      );

      const shown = await ada.session.json(pathOf(approvalCard, { entityId: payout.id }));
      expect(shown.status, JSON.stringify(shown.body)).toBe(200);
      expect(shown.body).toMatchObject({
        card: {
          intent: { kind: PAYOUT, amount: '1250.5', destination: { name: 'Payee One Ltd' } },
          status: { quorum: { required: 2, approvedBy: [] } },
        },
      });

      // The proposer never decides, signed or not.
      const own = await decide(pia.session, payout.id, await signIntent(pia, payout.id));
      expect(own.status, JSON.stringify(own.body)).toBe(403);
      expect(own.body).toMatchObject({ code: 'FOUR_EYES' });
      // Outside the member's sub-organizations it is not found, as any item is.
      const away = await createSubOrg(t.db, t.orgId, 'Payout elsewhere');
      const outsider = await t.signIn('admin', { subOrgIds: [away.id] });
      const hidden = await decide(outsider, payout.id, { digest: '0'.repeat(64) });
      expect(hidden.status, JSON.stringify(hidden.body)).toBe(404);
      // A member with a passkey decides only with it.
      const unsigned = await decide(ada.session, payout.id);
      expect(unsigned.status).toBe(403);
      expect(unsigned.body).toMatchObject({ code: 'SIGNED_INTENT_REQUIRED' });

      const first = await decide(ada.session, payout.id, await signIntent(ada, payout.id));
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body).toMatchObject({
        status: 'PENDING',
        policy: { approvals: 1, required: 2 },
      });
      expect(payouts.payouts.get(payout.id)).toMatchObject({ status: 'PENDING', settled: 0 });
      const again = await decide(ada.session, payout.id, await signIntent(ada, payout.id));
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'DECISION_ALREADY_RECORDED' });

      const second = await decide(ben.session, payout.id, await signIntent(ben, payout.id));
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      expect(second.body).toMatchObject({ status: 'APPROVED', policy: { approvals: 2 } });
      expect(payouts.payouts.get(payout.id)).toMatchObject({ status: 'APPROVED', settled: 1 });

      const stored = await ada.session.json(pathOf(approvalSignatures, { entityId: payout.id }));
      expect(stored.status, JSON.stringify(stored.body)).toBe(200);
      const { signatures } = ApprovalSignatures.parse(stored.body);
      // Both decided at the same instant of the test's clock: in name order.
      const rows = signatures.map((s) => [s.decidedBy, s.valid, s.counts]).sort();
      expect(rows).toEqual([
        ['Ada Payout', true, true],
        ['Ben Payout', true, true],
      ]);

      const audited = await t.db
        .select({ action: auditLog.action, summary: auditLog.summary, outcome: auditLog.outcome })
        .from(auditLog)
        .where(and(eq(auditLog.entityId, payout.id), eq(auditLog.action, 'change_request.approve')))
        .orderBy(asc(auditLog.at));
      // Each approval that stood, with the intent and passkey it was signed with; refusals too.
      const stood = audited.filter((r) => r.outcome === 'success');
      expect(stood).toHaveLength(2);
      for (const row of stood) expect(row.summary).toMatch(/intent [0-9a-f]{64}, passkey /);
      expect(audited.length).toBeGreaterThan(2);

      const events = await t.db
        .select({ kind: approvalEvents.kind, status: approvalEvents.status })
        .from(approvalEvents)
        .where(eq(approvalEvents.entityId, payout.id))
        .orderBy(asc(approvalEvents.id));
      expect(events).toEqual([
        { kind: 'PROPOSED', status: 'PENDING' },
        { kind: 'VOTE', status: 'APPROVE' },
        { kind: 'VOTE', status: 'APPROVE' },
        { kind: 'DECIDED', status: 'APPROVED' },
      ]);
    },
  );

  appTest(
    'a vote on a card that changed stops counting before the effect',
    async ({ t, subOrgId }) => {
      const pia = await withPasskey(t, 'Pia Changes');
      const ada = await withPasskey(t, 'Ada Changed');
      const ben = await withPasskey(t, 'Ben Changed', 'admin');
      const payout = await payouts.propose(
        t.db,
        t.clock,
        { id: pia.session.member.id, role: 'approver' },
        {
          subOrgId,
          payee: 'Payee Two Ltd',
          amount: '300',
        },
      );
      const first = await decide(ada.session, payout.id, await signIntent(ada, payout.id));
      expect(first.status, JSON.stringify(first.body)).toBe(200);

      // What Ada signed is no longer what would be paid.
      const held = payouts.payouts.get(payout.id);
      if (held) held.amount = '3000';
      const second = await decide(ben.session, payout.id, await signIntent(ben, payout.id));
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      expect(second.body).toMatchObject({
        status: 'PENDING',
        policy: { approvals: 1, required: 2 },
      });
      expect(payouts.payouts.get(payout.id)).toMatchObject({ status: 'PENDING', settled: 0 });
      const card = await ben.session.json(pathOf(approvalCard, { entityId: payout.id }));
      expect(card.body).toMatchObject({
        card: {
          status: { quorum: { voided: [expect.objectContaining({ name: 'Ada Changed' })] } },
        },
      });
    },
  );

  appTest(
    'a vote on a card that changed no longer counts as soon as the item is read, and the item never moves on with it',
    async ({ t, subOrgId }) => {
      const pia = await withPasskey(t, 'Pia Rereads');
      const ada = await withPasskey(t, 'Ada Reread');
      const ben = await withPasskey(t, 'Ben Reader', 'admin');
      const payout = await payouts.propose(
        t.db,
        t.clock,
        { id: pia.session.member.id, role: 'approver' },
        { subOrgId, payee: 'Payee Three Ltd', amount: '400' },
      );
      const first = await decide(ada.session, payout.id, await signIntent(ada, payout.id));
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const held = payouts.payouts.get(payout.id);
      if (held) held.amount = '4000';

      // Read, not voted on: the page's card already says Ada's approval no longer counts.
      const card = await ben.session.json(pathOf(approvalCard, { entityId: payout.id }));
      expect(card.status, JSON.stringify(card.body)).toBe(200);
      expect(card.body).toMatchObject({
        card: {
          status: {
            quorum: {
              approvedBy: [],
              voided: [
                expect.objectContaining({
                  name: 'Ada Reread',
                  because: expect.stringMatching(/amount/),
                }),
              ],
            },
          },
        },
      });
      // And so do the inbox's row and the item's signatures.
      const inbox = await ben.session.json(
        `${pathOf(approvalInbox, {})}?${new URLSearchParams({ subOrgId })}`,
      );
      const row = (
        inbox.body as { results: Array<{ id: string; card: { status: { quorum: unknown } } }> }
      ).results.find((r) => r.id === payout.id);
      expect(row?.card.status.quorum).toMatchObject({
        approvedBy: [],
        voided: [expect.objectContaining({ name: 'Ada Reread' })],
      });
      const signatures = ApprovalSignatures.parse(
        (await ben.session.json(pathOf(approvalSignatures, { entityId: payout.id }))).body,
      );
      expect(signatures.signatures.map((s) => [s.decidedBy, s.counts])).toEqual([
        ['Ada Reread', false],
      ]);
      // Told once, however often it is read.
      await ben.session.json(pathOf(approvalCard, { entityId: payout.id }));
      const withdrawn = await t.db
        .select({ status: approvalEvents.status })
        .from(approvalEvents)
        .where(
          and(
            eq(approvalEvents.entityId, payout.id),
            eq(approvalEvents.kind, 'VOTE'),
            eq(approvalEvents.status, 'WITHDRAWN'),
          ),
        );
      expect(withdrawn).toHaveLength(1);

      // The next approval is one of two, not the second: nothing is paid on Ada's.
      const second = await decide(ben.session, payout.id, await signIntent(ben, payout.id));
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      expect(second.body).toMatchObject({ status: 'PENDING', policy: { approvals: 1 } });
      expect(payouts.payouts.get(payout.id)).toMatchObject({ status: 'PENDING', settled: 0 });
    },
  );

  appTest(
    'waits in the inbox with its card, counts on the badge and is approved from it, by the core',
    async ({ t }) => {
      // A sub-organization of its own: the inbox and the badge are read for it alone.
      const here = await createSubOrg(t.db, t.orgId, 'Payout inbox');
      const pia = await withPasskey(t, 'Pia Inbox');
      const ada = await withPasskey(t, 'Ada Inbox');
      const ben = await withPasskey(t, 'Ben Inbox', 'admin');
      const by = { id: pia.session.member.id, role: 'approver' as const };
      const older = await payouts.propose(t.db, t.clock, by, {
        subOrgId: here.id,
        payee: 'Inbox Payee Older',
        amount: '40.25',
      });
      t.clock.advance(60_000);
      const newer = await payouts.propose(t.db, t.clock, by, {
        subOrgId: here.id,
        payee: 'Inbox Payee Newer',
        amount: '75',
      });
      const inbox = (who: StaffSession, query: Record<string, string> = {}) =>
        who.json(
          `${pathOf(approvalInbox, {})}?${new URLSearchParams({ subOrgId: here.id, ...query })}`,
        );
      const badge = (who: StaffSession) =>
        who.json(`${pathOf(approvalInboxCount, {})}?subOrgId=${here.id}`);

      const listed = await inbox(ada.session);
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      expect(listed.body).toMatchObject({
        results: [
          {
            kind: 'HELD',
            id: newer.id,
            subOrgId: here.id,
            yours: false,
            youApprovedAt: null,
            initiator: { type: 'STAFF', id: pia.session.member.id, name: 'Pia Inbox' },
            card: {
              intent: { kind: PAYOUT, amount: '75', destination: { name: 'Inbox Payee Newer' } },
              status: { quorum: { required: 2 } },
            },
            progress: { required: 2, approvals: [] },
          },
          { kind: 'HELD', id: older.id, card: { intent: { amount: '40.25' } } },
        ],
        actionableCount: 2,
        totalCount: 2,
        youApprovedCount: 0,
      });
      expect(await badge(ada.session)).toMatchObject({
        status: 200,
        body: { actionableCount: 2, totalCount: 2, youApprovedCount: 0 },
      });
      // Paged by the inbox's own cursor, a held item as any other.
      const first = await inbox(ada.session, { limit: '1' });
      expect(first.body).toMatchObject({ results: [{ id: newer.id }], hasNext: true });
      const { nextCursor } = first.body as { nextCursor: string };
      const second = await inbox(ada.session, { limit: '1', cursor: nextCursor });
      expect(second.body).toMatchObject({ results: [{ id: older.id }], hasNext: false });

      // The proposer sees their own, never counted as theirs to decide.
      expect(await inbox(pia.session)).toMatchObject({
        body: { results: [{ id: newer.id, yours: true }, { yours: true }], actionableCount: 0 },
      });
      // Outside the member's sub-organizations nothing of it shows.
      const away = await createSubOrg(t.db, t.orgId, 'Payout inbox elsewhere');
      const outsider = await t.signIn('admin', { subOrgIds: [away.id] });
      const elsewhere = await outsider.json(pathOf(approvalInbox, {}));
      expect(elsewhere.status).toBe(200);
      expect(JSON.stringify(elsewhere.body)).not.toContain(newer.id);

      // Approved from the inbox: each signed over the card it carries.
      const decided = await decide(ada.session, newer.id, await signIntent(ada, newer.id));
      expect(decided.status, JSON.stringify(decided.body)).toBe(200);
      expect(await badge(ada.session)).toMatchObject({
        body: { actionableCount: 1, totalCount: 2, youApprovedCount: 1 },
      });
      expect(await inbox(ada.session)).toMatchObject({
        body: { results: [{ id: newer.id, youApprovedAt: expect.any(String) }, { id: older.id }] },
      });
      const settled = await decide(ben.session, newer.id, await signIntent(ben, newer.id));
      expect(settled.body).toMatchObject({ status: 'APPROVED' });
      expect(await inbox(ben.session)).toMatchObject({
        body: { results: [{ id: older.id }], actionableCount: 1, totalCount: 1 },
      });
    },
  );
});
