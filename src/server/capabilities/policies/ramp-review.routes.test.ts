import { describe, expect } from 'vitest';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { pathOf } from '#contract/endpoint.ts';
import { reviewRampPolicy } from '#contract/endpoints/policy-writes.ts';
import { paths } from '#contract/paths.ts';
import { DEFAULT_POLICY, PolicyPreviewResponse, type Policy } from '#contract/policies.ts';
import { Transaction } from '#contract/transaction.ts';
import type { EngineTestApp } from '../../test/engine-test-app.ts';
import { publishPolicy } from '../../test/policies.ts';
import {
  INTENT_CREATE_PATH,
  QUOTE_PATH,
  rampTest,
  type RampFixture,
} from '../../test/ramp-fixtures.ts';
import { signInStaff, type StaffSession } from '../../test/staff-session.ts';

/**
 * The Convert page's review: POST /api/console/policies/ramps/review/
 * takes the execute's body and answers the rule the ramp would fall under,
 * judged on the transaction its quote would make (category, asset, USD value,
 * a bank account as destination, sub-organization), exactly as the execute is
 * then judged; nothing is created and the quote stays usable.
 */

const as = (t: EngineTestApp, role: 'initiator' | 'approver' | 'admin', name: string) =>
  signInStaff(t.app, t.db, t.authClock, { role, name });

/** The file's transactions policy: its desk rule names the ramp fixture's sub-organization. */
const policyFor = (r: RampFixture): Policy => ({
  rules: [
    {
      id: 'desk',
      name: 'No payouts from the desk',
      match: { subOrgIds: [r.subOrgVault.subOrgId], categories: ['OFF_RAMP'] },
      outcome: { action: 'BLOCK' },
    },
    {
      id: 'cap',
      name: 'Payout day cap',
      match: { categories: ['OFF_RAMP'], outflow24hUsdAbove: '3000' },
      outcome: { action: 'BLOCK' },
    },
    {
      id: 'big',
      name: 'Big payouts',
      match: {
        categories: ['OFF_RAMP'],
        amountUsdAtLeast: '1000',
        destinationKinds: ['BANK_ACCOUNT'],
      },
      outcome: {
        action: 'ALLOW',
        approvals: 2,
        approvers: { kinds: ['approver', 'admin'], memberIds: [] },
        apiClientMayApproveOwn: false,
      },
    },
  ],
  fallback: DEFAULT_POLICY.fallback,
});

/**
 * `published`: the policy in force, drafted by one admin and published by
 * another, before `ivy` (who asks every review) signs in; `ada` and `bo`,
 * two approvers.
 */
const reviewTest = rampTest
  .extend('published', { scope: 'file' }, async ({ t, r }) => {
    const [editor, reviewer] = [await as(t, 'admin', 'Editor'), await as(t, 'admin', 'Reviewer')];
    await publishPolicy(t.db, 'transactions', policyFor(r), {
      editor,
      reviewer,
      now: t.authClock.now(),
    });
  })
  .extend('ivy', { scope: 'file' }, ({ t, published: _published }) =>
    as(t, 'initiator', 'Ivy Initiator'),
  )
  .extend('ada', { scope: 'file' }, ({ t }) => as(t, 'approver', 'Ada Approver'))
  .extend('bo', { scope: 'file' }, ({ t }) => as(t, 'approver', 'Bo Approver'));

const send = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

function offRamp(vaultId: string, bankAccountId: string, fromAmount: string) {
  return {
    source: { type: 'VAULT', id: vaultId },
    destination: { type: 'BANK_ACCOUNT', id: bankAccountId },
    fromAsset: 'USDC',
    fromAmount,
    fromChain: 'ETHEREUM',
    toAsset: 'USD',
  };
}

async function quote(ivy: StaffSession, intent: object): Promise<string> {
  const res = await ivy.json(QUOTE_PATH, send({ intent }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { quotes: Array<{ quoteId: string }> }).quotes[0]?.quoteId ?? '';
}

async function review(by: StaffSession, body: object) {
  return by.json(pathOf(reviewRampPolicy), send(body));
}

async function approve(by: StaffSession, entityId: string) {
  const message = await by.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  const res = await by.json(paths.approvalAction(approvalId), send({ action: 'approve' }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('the Convert review: a ramp judged from its chosen quote', () => {
  reviewTest(
    'names the rule and its two approvals, creates nothing, and the execute is held to the same',
    async ({ t, f, r, ivy, ada, bo }) => {
      const intent = offRamp(f.treasury.id, r.usd.id, '2000');
      const quoteId = await quote(ivy, intent);
      const res = await review(ivy, { intent, quoteId, externalId: 'review-big' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(PolicyPreviewResponse.parse(res.body)).toMatchObject({
        requirement: { ruleName: 'Big payouts', outcome: { action: 'ALLOW', approvals: 2 } },
        summary: expect.stringContaining('2 approvals'),
      });
      // Nothing was made: the externalId and the quote are still free.
      const listed = await ivy.json(`${paths.transactions()}?externalId=review-big`);
      expect(listed.body).toMatchObject({ results: [] });

      const made = await ivy.json(
        INTENT_CREATE_PATH,
        send({ intent, quoteId, externalId: 'review-big' }),
      );
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const id = Transaction.parse(made.body).id ?? '';
      expect(await approve(ada, id)).toMatchObject({
        status: 'PENDING',
        policy: { ruleName: 'Big payouts', approvals: 1, required: 2 },
      });
      await approve(bo, id);
      expect(await t.status(id)).toBe('APPROVED');
    },
  );

  reviewTest('a small payout falls to the default rule: one approval', async ({ f, r, ivy }) => {
    const intent = offRamp(f.treasury.id, r.usd.id, '100');
    const res = await review(ivy, { intent, quoteId: await quote(ivy, intent) });
    expect(res.body).toMatchObject({
      requirement: { ruleId: null, ruleName: 'Default', outcome: { approvals: 1 } },
    });
  });

  reviewTest(
    'holds a payout to the vault’s day: past the cap it is blocked at review, and frozen blocked when sent',
    async ({ f, r, ivy, ada }) => {
      // About $1,990 left the treasury in the first story; $1,490 more passes the $3,000 cap.
      const intent = offRamp(f.treasury.id, r.usd.id, '1500');
      const quoteId = await quote(ivy, intent);
      const res = await review(ivy, { intent, quoteId });
      expect(res.body).toMatchObject({
        requirement: { ruleName: 'Payout day cap', outcome: { action: 'BLOCK' } },
      });
      const made = await ivy.json(INTENT_CREATE_PATH, send({ intent, quoteId }));
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const id = Transaction.parse(made.body).id ?? '';
      const message = await ada.json(`${paths.approvalMessage()}?entityId=${id}`);
      const { approvalId } = ApprovalMessageResponse.parse(message.body);
      const decided = await ada.json(paths.approvalAction(approvalId), send({ action: 'approve' }));
      expect(decided.status).toBe(403);
      expect(decided.body).toMatchObject({
        code: 'POLICY_BLOCKED',
        message: expect.stringContaining('"Payout day cap"'),
      });
    },
  );

  reviewTest(
    'says a blocking rule by name, judged on the sub-organization the quote was priced for',
    async ({ r, ivy }) => {
      const intent = offRamp(r.subOrgVault.id, r.otherSubOrg.id, '100');
      const res = await review(ivy, { intent, quoteId: await quote(ivy, intent) });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({
        requirement: { ruleName: 'No payouts from the desk', outcome: { action: 'BLOCK' } },
      });
    },
  );

  reviewTest('refuses what the execute would refuse, naming the field', async ({ f, r, ivy }) => {
    const intent = offRamp(f.treasury.id, r.usd.id, '100');
    const unknown = await review(ivy, { intent, quoteId: 'no-such-quote' });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({
      code: 'QUOTE_NOT_FOUND',
      fields: [{ field: 'quoteId' }],
    });
    const quoteId = await quote(ivy, intent);
    const mismatch = await review(ivy, { intent: { ...intent, fromAmount: '99' }, quoteId });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body).toMatchObject({ code: 'QUOTE_MISMATCH' });
  });

  reviewTest(
    'holds a restricted member to their sub-organizations, and a viewer may not ask',
    async ({ t, f, r, ivy }) => {
      const intent = offRamp(f.treasury.id, r.usd.id, '100');
      const quoteId = await quote(ivy, intent);
      const desk = await signInStaff(t.app, t.db, t.authClock, {
        role: 'initiator',
        subOrgIds: [r.subOrgVault.subOrgId],
      });
      expect((await review(desk, { intent, quoteId })).status).toBe(404);
      const viewer = await signInStaff(t.app, t.db, t.authClock, { role: 'viewer' });
      expect((await review(viewer, { intent, quoteId })).status).toBe(403);
    },
  );
});
