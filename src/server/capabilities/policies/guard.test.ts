import { describe, expect } from 'vitest';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { DEFAULT_POLICY, type Policy } from '#contract/policies.ts';
import { Transaction } from '#contract/transaction.ts';
import { signedInit } from '../../test/api-client.ts';
import { decideAs } from '../../test/change-requests.ts';
import type { EngineFixture, EngineTestApp } from '../../test/engine-test-app.ts';
import { publishPolicy } from '../../test/policies.ts';
import { INTENT_CREATE_PATH, QUOTE_PATH, rampTest } from '../../test/ramp-fixtures.ts';
import { signInStaff, type StaffSession } from '../../test/staff-session.ts';

/**
 * Approval policies through the real app: the console judges each item at creation
 * against the active policy, freezes the rule on it, collects its members'
 * decisions and sends the custody API one approval only once the rule is met.
 */

const as = (t: EngineTestApp, role: 'initiator' | 'approver' | 'admin', name: string) =>
  signInStaff(t.app, t.db, t.authClock, { role, name });

/**
 * The file's members, each signed in once; `usePolicy(policy)` publishes
 * `policy` for transactions, drafted by one admin and published by another.
 */
const guardTest = rampTest
  .extend('initiator', { scope: 'file' }, ({ t }) => as(t, 'initiator', 'Ivy Initiator'))
  .extend('ada', { scope: 'file' }, ({ t }) => as(t, 'approver', 'Ada Approver'))
  .extend('bo', { scope: 'file' }, ({ t }) => as(t, 'approver', 'Bo Approver'))
  .extend('cy', { scope: 'file' }, ({ t }) => as(t, 'admin', 'Cy Admin'))
  .extend('usePolicy', { scope: 'file' }, async ({ t }) => {
    const editor = await as(t, 'admin', 'Policy Editor');
    const reviewer = await as(t, 'admin', 'Policy Reviewer');
    return (policy: Policy) =>
      publishPolicy(t.db, 'transactions', policy, { editor, reviewer, now: t.authClock.now() });
  });

const bigNeedsTwo: Policy = {
  rules: [
    {
      id: 'big',
      name: 'Big transfers',
      match: { categories: ['TRANSFER'], amountUsdAtLeast: '10000' },
      outcome: {
        action: 'ALLOW',
        approvals: 2,
        approvers: { kinds: ['approver', 'admin'], memberIds: [] },
        apiClientMayApproveOwn: false,
      },
    },
    {
      id: 'no-pending-contacts',
      name: 'No USDC to contacts',
      match: { assets: ['USDC'], destinationKinds: ['CONTACT'] },
      outcome: { action: 'BLOCK' },
    },
  ],
  fallback: DEFAULT_POLICY.fallback,
};

const send = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

/** ETH is $3,000 in the sandbox: 5 ETH is $15,000, 0.25 ETH $750. */
async function transfer(initiator: StaffSession, f: EngineFixture, amount: string, asset = 'ETH') {
  const res = await initiator.json(
    paths.transactions(),
    send({
      category: 'TRANSFER',
      source: { type: 'VAULT', id: f.treasury.id },
      destination: { type: 'CONTACT', id: f.contacts.eth.id },
      amount,
      asset,
      blockChain: 'ETHEREUM',
    }),
  );
  return res;
}

async function created(initiator: StaffSession, f: EngineFixture, amount: string): Promise<string> {
  const res = await transfer(initiator, f, amount);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Transaction.parse(res.body).id ?? '';
}

async function decide(by: StaffSession, entityId: string, action: 'approve' | 'reject') {
  const message = await by.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  expect(message.status, JSON.stringify(message.body)).toBe(200);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  return by.json(
    paths.approvalAction(approvalId),
    send({ action, ...(action === 'reject' ? { reason: 'not this one' } : {}) }),
  );
}

describe('approval policies applied', () => {
  guardTest(
    'a transfer its rule holds to two approvals stays pending at one and moves at two',
    async ({ t, f, initiator, ada, cy, usePolicy }) => {
      await usePolicy(bigNeedsTwo);
      const id = await created(initiator, f, '5');

      const first = await decide(ada, id, 'approve');
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      expect(first.body).toMatchObject({
        status: 'PENDING',
        policy: { ruleName: 'Big transfers', approvals: 1, required: 2 },
      });
      expect(await t.status(id)).toBe('PENDING');
      // The same approver twice is still one approval: the second is refused, saying so.
      const again = await decide(ada, id, 'approve');
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'DECISION_ALREADY_RECORDED' });
      expect(await t.status(id)).toBe('PENDING');

      const second = await decide(cy, id, 'approve');
      expect(second.status, JSON.stringify(second.body)).toBe(200);
      expect(second.body).toMatchObject({ policy: { approvals: 2, required: 2 } });
      expect(await t.status(id)).toBe('APPROVED');
    },
  );

  guardTest(
    'a transfer under the threshold needs one, as before',
    async ({ t, f, initiator, bo, usePolicy }) => {
      await usePolicy(bigNeedsTwo);
      const id = await created(initiator, f, '0.25');
      expect((await decide(bo, id, 'approve')).status).toBe(200);
      expect(await t.status(id)).toBe('APPROVED');
    },
  );

  guardTest(
    'a policy published is the one the very next create is judged by',
    async ({ t, f, initiator, ada, usePolicy }) => {
      // The active policy is kept between creates while unchanged (guard.ts): publishing changes it.
      await usePolicy(bigNeedsTwo);
      const held = await created(initiator, f, '5');
      expect((await decide(ada, held, 'approve')).body).toMatchObject({
        status: 'PENDING',
        policy: { ruleName: 'Big transfers', required: 2 },
      });
      await usePolicy(DEFAULT_POLICY);
      const free = await created(initiator, f, '5');
      expect((await decide(ada, free, 'approve')).status).toBe(200);
      expect(await t.status(free)).toBe('APPROVED');
    },
  );

  guardTest(
    "a velocity rule sums the vault's outflow of the day before the item",
    async ({ t, f, initiator, ada, usePolicy }) => {
      // ETH is $3,000: 2,000 ETH is $6M. The first fits under the $10M cap with what the
      // vault sent before; the second, after the first, does not.
      await usePolicy({
        rules: [
          {
            id: 'velocity',
            name: 'Daily outflow over $10M',
            match: { outflow24hUsdAbove: '10000000' },
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
      const first = await created(initiator, f, '2000');
      const second = await created(initiator, f, '2000');
      expect((await decide(ada, first, 'approve')).status).toBe(200);
      expect(await t.status(first)).toBe('APPROVED');
      expect((await decide(ada, second, 'approve')).body).toMatchObject({
        status: 'PENDING',
        policy: { ruleName: 'Daily outflow over $10M', required: 2 },
      });
    },
  );

  guardTest(
    'one eligible decline ends it at once',
    async ({ t, f, initiator, ada, bo, usePolicy }) => {
      await usePolicy(bigNeedsTwo);
      const id = await created(initiator, f, '5');
      await decide(ada, id, 'approve');
      const declined = await decide(bo, id, 'reject');
      expect(declined.status, JSON.stringify(declined.body)).toBe(200);
      expect(await t.status(id)).toBe('DECLINED');
    },
  );

  guardTest(
    'a blocking rule refuses at creation, naming the rule, and creates nothing',
    async ({ t, f, initiator, usePolicy }) => {
      await usePolicy(bigNeedsTwo);
      const before = await t.get(`${paths.transactions()}?limit=100`);
      const res = await transfer(initiator, f, '10', 'USDC');
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      const error = ApiErrorBody.parse(res.body);
      expect(error.code).toBe('POLICY_BLOCKED');
      expect(error.message).toContain('"No USDC to contacts"');
      const after = await t.get(`${paths.transactions()}?limit=100`);
      expect((after.body.results as unknown[]).length).toBe(
        (before.body.results as unknown[]).length,
      );
    },
  );

  guardTest(
    'a member the rule does not count is refused, naming the rule',
    async ({ t, f, initiator, ada, cy, usePolicy }) => {
      await usePolicy({
        rules: [
          {
            id: 'admins',
            name: 'Admins only',
            match: { categories: ['TRANSFER'] },
            outcome: {
              action: 'ALLOW',
              approvals: 1,
              approvers: { kinds: ['admin'], memberIds: [] },
              apiClientMayApproveOwn: false,
            },
          },
        ],
        fallback: DEFAULT_POLICY.fallback,
      });
      const id = await created(initiator, f, '0.25');
      const refused = await decide(ada, id, 'approve');
      expect(refused.status).toBe(403);
      expect(ApiErrorBody.parse(refused.body)).toMatchObject({ code: 'POLICY_NOT_ELIGIBLE' });
      expect(ApiErrorBody.parse(refused.body).message).toContain('"Admins only"');
      expect((await decide(cy, id, 'approve')).status).toBe(200);
      expect(await t.status(id)).toBe('APPROVED');
    },
  );

  guardTest(
    'the rule frozen at creation holds after the policy is loosened',
    async ({ t, f, initiator, ada, bo, usePolicy }) => {
      await usePolicy(bigNeedsTwo);
      const id = await created(initiator, f, '5');
      await usePolicy(DEFAULT_POLICY);
      expect((await decide(ada, id, 'approve')).body).toMatchObject({ status: 'PENDING' });
      expect(await t.status(id)).toBe('PENDING');
      await decide(bo, id, 'approve');
      expect(await t.status(id)).toBe('APPROVED');
    },
  );

  guardTest(
    'two approvers at the same instant: approved once, neither decision lost',
    async ({ t, f, initiator, ada, bo, usePolicy }) => {
      await usePolicy(bigNeedsTwo);
      const id = await created(initiator, f, '5');
      const [a, b] = await Promise.all([decide(ada, id, 'approve'), decide(bo, id, 'approve')]);
      expect([a.status, b.status]).toEqual([200, 200]);
      const counts = [a.body, b.body].map(
        (body) => (body as { policy: { approvals: number } }).policy.approvals,
      );
      expect(counts.sort()).toEqual([1, 2]);
      expect(await t.status(id)).toBe('APPROVED');
    },
  );

  guardTest(
    'an API client adds only the approval that completes the rule',
    async ({ t, f, client, initiator, ada, usePolicy }) => {
      await usePolicy({
        ...bigNeedsTwo,
        rules: [
          {
            ...bigNeedsTwo.rules[0]!,
            outcome: {
              action: 'ALLOW',
              approvals: 2,
              approvers: { kinds: ['approver', 'api_client'], memberIds: [] },
              apiClientMayApproveOwn: false,
            },
          },
        ],
      });
      const id = await created(initiator, f, '5');
      const early = await decideAs(t.app, client, id, { action: 'approve' });
      expect(early.status, JSON.stringify(early.body)).toBe(403);
      expect(ApiErrorBody.parse(early.body).code).toBe('POLICY_NEEDS_MORE_APPROVALS');
      expect(await t.status(id)).toBe('PENDING');
      expect((await decide(ada, id, 'approve')).body).toMatchObject({ status: 'PENDING' });
      const last = await decideAs(t.app, client, id, { action: 'approve' });
      expect(last.status, JSON.stringify(last.body)).toBe(200);
      expect(await t.status(id)).toBe('APPROVED');
    },
  );

  guardTest(
    "an API client's own decision under a rule that does not count it is refused and moves nothing",
    async ({ t, f, client, ada, usePolicy }) => {
      // Anyone may approve, but not the creator: two approvals from others are the only verdict.
      await usePolicy({
        rules: [
          {
            id: 'big',
            name: 'Big transfers',
            match: { categories: ['TRANSFER'], amountUsdAtLeast: '10000' },
            outcome: {
              action: 'ALLOW',
              approvals: 2,
              approvers: { kinds: [], memberIds: [] },
              apiClientMayApproveOwn: false,
            },
          },
        ],
        fallback: DEFAULT_POLICY.fallback,
      });
      const url = paths.transactions();
      const made = await t.app.request(
        url,
        signedInit(client, 'POST', url, {
          category: 'TRANSFER',
          source: { type: 'VAULT', id: f.treasury.id },
          destination: { type: 'CONTACT', id: f.contacts.eth.id },
          amount: '5',
          asset: 'ETH',
          blockChain: 'ETHEREUM',
        }),
      );
      expect(made.status).toBe(200);
      const id = Transaction.parse(await made.json()).id ?? '';

      const own = async (action: 'approve' | 'reject') => {
        const res = await decideAs(t.app, client, id, {
          action,
          ...(action === 'reject' ? { reason: 'mine' } : {}),
        });
        expect(res.status, JSON.stringify(res.body)).toBe(403);
        expect(ApiErrorBody.parse(res.body)).toMatchObject({ code: 'SELF_APPROVAL_NOT_ALLOWED' });
        expect(ApiErrorBody.parse(res.body).message).toContain('"Big transfers"');
        expect(await t.status(id)).toBe('PENDING');
      };
      await own('approve');
      await own('reject');
      // With one member's approval in, its own is still not the second.
      expect((await decide(ada, id, 'approve')).body).toMatchObject({
        status: 'PENDING',
        policy: { approvals: 1, required: 2 },
      });
      await own('approve');
      const progress = await ada.json(`/api/console/approval_progress/?entityIds=${id}`);
      expect(progress.body).toMatchObject({
        results: [{ entityId: id, state: 'PENDING', approvals: [{ id: ada.member.id }] }],
      });
    },
  );

  guardTest(
    "a member's own decision under a rule is refused by the rule, naming it",
    async ({ t, f, cy, usePolicy }) => {
      // An admin may both create and approve: never their own.
      await usePolicy(bigNeedsTwo);
      const id = await created(cy, f, '5');
      for (const action of ['approve', 'reject'] as const) {
        const res = await decide(cy, id, action);
        expect(res.status, JSON.stringify(res.body)).toBe(403);
        expect(ApiErrorBody.parse(res.body)).toMatchObject({ code: 'FOUR_EYES' });
        expect(ApiErrorBody.parse(res.body).message).toContain('"Big transfers"');
        expect(await t.status(id)).toBe('PENDING');
      }
    },
  );

  guardTest(
    'an off-ramp is judged on what its quote made: two approvals where the rule says',
    async ({ t, f, r, ada, bo, cy, usePolicy }) => {
      await usePolicy({
        rules: [
          {
            id: 'payouts',
            name: 'Bank payouts',
            match: { categories: ['OFF_RAMP'] },
            outcome: {
              action: 'ALLOW',
              approvals: 2,
              approvers: { kinds: [], memberIds: [] },
              apiClientMayApproveOwn: false,
            },
          },
        ],
        fallback: DEFAULT_POLICY.fallback,
      });
      const intent = {
        source: { type: 'VAULT', id: f.treasury.id },
        destination: { type: 'BANK_ACCOUNT', id: r.usd.id },
        fromAsset: 'USDC',
        fromAmount: '100',
        fromChain: 'ETHEREUM',
        toAsset: 'USD',
      };
      const quoted = await cy.json(QUOTE_PATH, send({ intent }));
      expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
      const quoteId = (quoted.body as { quotes: Array<{ quoteId: string }> }).quotes[0]?.quoteId;
      const made = await cy.json(
        INTENT_CREATE_PATH,
        send({ intent, quoteId, externalId: 'payout-1' }),
      );
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      const id = Transaction.parse(made.body).id ?? '';
      expect((await decide(ada, id, 'approve')).body).toMatchObject({
        status: 'PENDING',
        policy: { ruleName: 'Bank payouts', approvals: 1, required: 2 },
      });
      expect(await t.status(id)).toBe('PENDING');
      await decide(bo, id, 'approve');
      expect(await t.status(id)).toBe('APPROVED');
    },
  );

  guardTest(
    "a swap names no amount: it is judged by its quote's USD value, two approvals above the rule's threshold and one below",
    async ({ t, f, ada, bo, cy, usePolicy }) => {
      await usePolicy({
        rules: [
          {
            id: 'big-swaps',
            name: 'Big swaps',
            match: { categories: ['SWAP'], amountUsdAtLeast: '1000' },
            outcome: {
              action: 'ALLOW',
              approvals: 2,
              approvers: { kinds: [], memberIds: [] },
              apiClientMayApproveOwn: false,
            },
          },
        ],
        fallback: DEFAULT_POLICY.fallback,
      });
      const swap = async (fromAmount: string) => {
        const query = new URLSearchParams({
          vaultId: f.treasury.id,
          fromAsset: 'USDC',
          toAsset: 'ETH',
          fromAmount,
          blockChain: 'ETHEREUM',
        });
        const quoted = await cy.json(`/api/external/transactions/trade_quote/?${query}`);
        expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
        const answer = quoted.body as {
          tradeRequestData: unknown;
          tradeResponseDataList: unknown[];
        };
        const made = await cy.json(
          paths.transactions(),
          send({
            category: 'SWAP',
            vaultId: f.treasury.id,
            tradeRequestData: answer.tradeRequestData,
            tradeResponseData: answer.tradeResponseDataList[0],
          }),
        );
        expect(made.status, JSON.stringify(made.body)).toBe(200);
        return Transaction.parse(made.body).id ?? '';
      };
      // USDC is $1: 1,500 USDC is $1,500, over the rule's $1,000.
      const big = await swap('1500');
      expect((await decide(ada, big, 'approve')).body).toMatchObject({
        status: 'PENDING',
        policy: { ruleName: 'Big swaps', approvals: 1, required: 2 },
      });
      expect(await t.status(big)).toBe('PENDING');
      await decide(bo, big, 'approve');
      expect(await t.status(big)).toBe('APPROVED');
      // 50 USDC falls to the fallback: one approval.
      const small = await swap('50');
      await decide(ada, small, 'approve');
      expect(await t.status(small)).toBe('APPROVED');
    },
  );
});
