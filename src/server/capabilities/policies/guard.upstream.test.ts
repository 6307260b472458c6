import { describe, expect } from 'vitest';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { paths } from '#contract/paths.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { DEFAULT_POLICY, type Policy } from '#contract/policies.ts';
import { Transaction } from '#contract/transaction.ts';
import { publishPolicy } from '../../test/policies.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import { twoConsolesTest, type TwoConsoles } from '../../test/two-consoles.ts';

/**
 * Approval policies in upstream mode, console → console over real HTTP: console A (in
 * upstream mode) holds the policy and collects its members' approvals; the
 * custody API (console B, a sandbox) receives exactly one approval, and only
 * once A's rule is met.
 */

/** On A, drafted by one admin and published by another: transfers need two approvals. */
async function publishTwoApprovers(t: TwoConsoles) {
  const [editor, reviewer] = [await t.signIn('admin'), await t.signIn('admin')];
  const policy: Policy = {
    rules: [
      {
        id: 'two',
        name: 'Two approvers for transfers',
        match: { categories: ['TRANSFER'] },
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
  await publishPolicy(t.aDatabase.db, 'transactions', policy, {
    editor,
    reviewer,
    now: t.clock.now(),
  });
}

/** A's policy published; `ada` and `bo`, two of A's approvers. */
const upstreamTest = twoConsolesTest({}, publishTwoApprovers)
  .extend('ada', { scope: 'file' }, ({ t }) => t.signIn('approver'))
  .extend('bo', { scope: 'file' }, ({ t, ada: _ada }) => t.signIn('approver'));

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

async function approve(by: StaffSession, entityId: string) {
  const message = await by.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  expect(message.status, JSON.stringify(message.body)).toBe(200);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  return by.json(paths.approvalAction(approvalId), post({ action: 'approve' }));
}

describe('approval policies through an upstream custody API', () => {
  upstreamTest(
    'sends the custody API exactly one approval, only once the rule is met',
    async ({ t, initiator, ada, bo }) => {
      const made = await initiator.json(
        paths.transactions(),
        post({
          category: 'TRANSFER',
          source: { type: 'VAULT', id: t.fixture.treasury.id },
          destination: { type: 'CONTACT', id: t.fixture.contacts.eth.id },
          amount: '0.5',
          asset: 'ETH',
          blockChain: 'ETHEREUM',
        }),
      );
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const id = Transaction.parse(made.body).id ?? '';

      // Every decision A sends B, as B receives it.
      const sent: string[] = [];
      t.intercept = (send, input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        if (
          (init?.method ?? 'GET') === 'POST' &&
          /\/change_requests\/approvals\/[^/]+\/action\//.test(url)
        )
          sent.push(url);
        return send(input, init);
      };
      try {
        const first = await approve(ada, id);
        expect(first.status, JSON.stringify(first.body)).toBe(200);
        expect(first.body).toMatchObject({
          status: 'PENDING',
          policy: { approvals: 1, required: 2 },
        });
        expect(sent).toEqual([]);
        expect(await t.b.status(id)).toBe('PENDING');

        // The same approver again is refused, counts for nothing and sends nothing.
        const again = await approve(ada, id);
        expect(again.status).toBe(409);
        expect(again.body).toMatchObject({ code: 'DECISION_ALREADY_RECORDED' });
        expect(sent).toEqual([]);

        const second = await approve(bo, id);
        expect(second.status, JSON.stringify(second.body)).toBe(200);
        expect(sent).toHaveLength(1);
        expect(await t.b.status(id)).toBe('APPROVED');
      } finally {
        t.intercept = null;
      }
    },
  );

  upstreamTest(
    "a member's own decision is refused by the rule, and nothing reaches the custody API",
    async ({ t, admin }) => {
      const made = await admin.json(
        paths.transactions(),
        post({
          category: 'TRANSFER',
          source: { type: 'VAULT', id: t.fixture.treasury.id },
          destination: { type: 'CONTACT', id: t.fixture.contacts.eth.id },
          amount: '0.5',
          asset: 'ETH',
          blockChain: 'ETHEREUM',
        }),
      );
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const id = Transaction.parse(made.body).id ?? '';
      const message = await admin.json(`${paths.approvalMessage()}?entityId=${id}`);
      const { approvalId } = ApprovalMessageResponse.parse(message.body);

      // Every call A makes to B from here on.
      const calls: string[] = [];
      t.intercept = (send, input, init) => {
        calls.push(
          `${init?.method ?? 'GET'} ${String(input instanceof Request ? input.url : input)}`,
        );
        return send(input, init);
      };
      try {
        for (const action of ['approve', 'reject'] as const) {
          const res = await admin.json(
            paths.approvalAction(approvalId),
            post({ action, ...(action === 'reject' ? { reason: 'mine' } : {}) }),
          );
          expect(res.status, JSON.stringify(res.body)).toBe(403);
          expect(ApiErrorBody.parse(res.body)).toMatchObject({ code: 'FOUR_EYES' });
          expect(ApiErrorBody.parse(res.body).message).toContain('"Two approvers for transfers"');
        }
        expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);
      } finally {
        t.intercept = null;
      }
      expect(await t.b.status(id)).toBe('PENDING');
    },
  );
});
