import { describe, expect } from 'vitest';
import { ApprovalInboxCounts } from '#contract/approval-inbox-counts.ts';
import { ApprovalInboxResponse } from '#contract/approval-inbox.ts';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { pathOf } from '#contract/endpoint.ts';
import { approvalInboxCount } from '#contract/endpoints/approval-counts.ts';
import { approvalInbox } from '#contract/endpoints/approvals.ts';
import { paths } from '#contract/paths.ts';
import { DEFAULT_POLICY, type Policy } from '#contract/policies.ts';
import { Transaction } from '#contract/transaction.ts';
import type { EngineTestApp } from '../../test/engine-test-app.ts';
import { engineTest } from '../../test/engine-test.ts';
import { publishPolicy } from '../../test/policies.ts';
import { signInStaff, type StaffSession } from '../../test/staff-session.ts';

/**
 * An approver who has approved an item a rule holds for more approvals has
 * nothing left to decide on it: it is no longer counted as waiting for their
 * decision (the badge), and the inbox says when they approved.
 */

async function staffOf(t: EngineTestApp) {
  const as = (role: 'initiator' | 'approver' | 'admin', name: string) =>
    signInStaff(t.app, t.db, t.authClock, { role, name, subOrgIds: null });
  const staff = {
    ivy: await as('initiator', 'Ivy Decided'),
    ada: await as('approver', 'Ada Decided'),
    bo: await as('approver', 'Bo Decided'),
    editor: await as('admin', 'Editor Decided'),
    reviewer: await as('admin', 'Reviewer Decided'),
  };
  const twoApprovals: Policy = {
    rules: [
      {
        id: 'two',
        name: 'Two approvals',
        match: {},
        outcome: {
          action: 'ALLOW',
          approvals: 2,
          approvers: { kinds: ['approver', 'admin'], memberIds: [] },
          apiClientMayApproveOwn: false,
        },
      },
    ],
    fallback: DEFAULT_POLICY.fallback,
  };
  await publishPolicy(t.db, 'transactions', twoApprovals, {
    editor: staff.editor,
    reviewer: staff.reviewer,
    now: t.authClock.now(),
  });
  return staff;
}

const decidedTest = engineTest.extend('staff', { scope: 'file' }, ({ t }) => staffOf(t));

const send = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

async function approve(by: StaffSession, entityId: string) {
  const message = await by.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  const res = await by.json(paths.approvalAction(approvalId), send({ action: 'approve' }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function countsOf(by: StaffSession) {
  const res = await by.json(pathOf(approvalInboxCount));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ApprovalInboxCounts.parse(res.body);
}

async function inboxItem(by: StaffSession, id: string) {
  const res = await by.json(`${pathOf(approvalInbox)}?limit=100`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ApprovalInboxResponse.parse(res.body).results.find((item) => item.id === id);
}

describe('an item the member already approved', () => {
  decidedTest(
    'is left out of what waits for their decision, and says when they approved',
    async ({ f, staff }) => {
      const { ivy, ada, bo } = staff;
      const made = await ivy.json(
        paths.transactions(),
        send({
          category: 'TRANSFER',
          source: { type: 'VAULT', id: f.treasury.id },
          destination: { type: 'CONTACT', id: f.contacts.eth.id },
          amount: '0.0123',
          asset: 'ETH',
          blockChain: 'ETHEREUM',
        }),
      );
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const id = Transaction.parse(made.body).id ?? '';
      const [adaBefore, boBefore] = [await countsOf(ada), await countsOf(bo)];
      expect((await inboxItem(ada, id))?.youApprovedAt).toBeNull();

      await approve(ada, id);

      // Still waiting (one more approval), still listed, but no longer Ada's to decide.
      const adaAfter = await countsOf(ada);
      expect(adaAfter.totalCount).toBe(adaBefore.totalCount);
      expect(adaAfter.actionableCount).toBe(adaBefore.actionableCount - 1);
      // Counted apart, so the inbox can say it waits for others without calling it Ada's own.
      expect(adaAfter.youApprovedCount).toBe(adaBefore.youApprovedCount + 1);
      expect((await countsOf(bo)).youApprovedCount).toBe(boBefore.youApprovedCount);
      const item = await inboxItem(ada, id);
      expect(item?.youApprovedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(item?.progress?.approvals.map((a) => a.name)).toEqual(['Ada Decided']);
      // Bo has not decided: it still waits for him.
      expect((await countsOf(bo)).actionableCount).toBe(boBefore.actionableCount);
      expect((await inboxItem(bo, id))?.youApprovedAt).toBeNull();
    },
  );
});

describe('a member who already decided an item still waiting', () => {
  decidedTest(
    'is refused a second decision with 409 DECISION_ALREADY_RECORDED naming when they decided',
    async ({ f, staff }) => {
      const { ivy, ada, bo } = staff;
      const made = await ivy.json(
        paths.transactions(),
        send({
          category: 'TRANSFER',
          source: { type: 'VAULT', id: f.treasury.id },
          destination: { type: 'CONTACT', id: f.contacts.eth.id },
          amount: '0.0124',
          asset: 'ETH',
          blockChain: 'ETHEREUM',
        }),
      );
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const id = Transaction.parse(made.body).id ?? '';
      await approve(ada, id);

      const message = await ada.json(`${paths.approvalMessage()}?entityId=${id}`);
      const { approvalId } = ApprovalMessageResponse.parse(message.body);
      for (const body of [{ action: 'approve' }, { action: 'reject', reason: 'changed my mind' }]) {
        const again = await ada.json(paths.approvalAction(approvalId), send(body));
        expect(again.status, JSON.stringify(again.body)).toBe(409);
        expect(again.body).toMatchObject({ code: 'DECISION_ALREADY_RECORDED' });
        expect((again.body as { message: string }).message).toMatch(
          /^You already approved this at \d{4}-\d\d-\d\dT.+; it waits for 1 more approval under the rule "Two approvals"/,
        );
      }
      // Still one approval counted, and another member's completes it.
      const item = await inboxItem(bo, id);
      expect(item?.progress?.approvals.map((a) => a.name)).toEqual(['Ada Decided']);
      await approve(bo, id);
    },
  );
});
