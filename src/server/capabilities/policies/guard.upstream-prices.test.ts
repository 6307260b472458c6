import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { ApprovalMessageResponse } from '#contract/approvals.ts';
import { pathOf } from '#contract/endpoint.ts';
import { reviewRampPolicy, reviewTransactionPolicy } from '#contract/endpoints/policy-writes.ts';
import { paths } from '#contract/paths.ts';
import {
  DEFAULT_POLICY,
  PolicyPreviewResponse,
  type Policy,
  type PolicyRule,
} from '#contract/policies.ts';
import { Transaction } from '#contract/transaction.ts';
import { assets } from '../../db/schema/sandbox.ts';
import type { StaffSession } from '../../test/staff-session.ts';
import { twoConsolesTest, type TwoConsoles } from '../../test/two-consoles.ts';
import { publishPolicy } from '../../test/policies.ts';
import { createRampFixture, QUOTE_PATH } from '../../test/ramp-fixtures.ts';

/**
 * USD rules judge alike in upstream mode. Console A (upstream mode)
 * prices an amount from the custody API's own balances (console B, a sandbox:
 * ETH $3,000, USDC $1, BTC $60,000; POL made unpriced here), so a $500
 * transfer under "≥ $10,000 → 2 approvals" needs one, as in sandbox mode; an
 * asset the custody API gives no price still fails closed; and the vault's
 * 24-hour outflow is summed from the custody API's transactions.
 */

/** Every detailed_balances read A makes of B. */
const balanceReads: string[] = [];

const twoApprovers: PolicyRule['outcome'] = {
  action: 'ALLOW',
  approvals: 2,
  approvers: { kinds: ['approver', 'admin'], memberIds: [] },
  apiClientMayApproveOwn: false,
};
const policy: Policy = {
  rules: [
    {
      id: 'cap',
      name: 'Daily cap',
      match: { categories: ['TRANSFER'], assets: ['USDC', 'BTC'], outflow24hUsdAbove: '52000' },
      outcome: { action: 'BLOCK' },
    },
    {
      id: 'big',
      name: 'Big transfers',
      match: { categories: ['TRANSFER'], amountUsdAtLeast: '10000' },
      outcome: twoApprovers,
    },
    {
      id: 'payouts',
      name: 'Big payouts',
      match: { categories: ['OFF_RAMP'], amountUsdAtLeast: '1000' },
      outcome: twoApprovers,
    },
  ],
  fallback: DEFAULT_POLICY.fallback,
};

/** B without a price for POL, A's policy published, and A's balance reads counted. */
async function prepare(t: TwoConsoles) {
  // B has no price for POL: its balances answer the line without one.
  await t.b.db
    .update(assets)
    .set({ usdPrice: '0' })
    .where(and(eq(assets.symbol, 'POL'), eq(assets.blockChain, 'POLYGON')));
  const [editor, reviewer] = [await t.signIn('admin'), await t.signIn('admin')];
  await publishPolicy(t.aDatabase.db, 'transactions', policy, {
    editor,
    reviewer,
    now: t.clock.now(),
  });
  t.intercept = (send, input, init) => {
    const url = String(input instanceof Request ? input.url : input);
    if (/\/detailed_balances\//.test(url)) balanceReads.push(url);
    return send(input, init);
  };
}

/** `ada` and `bo`, two of A's approvers; `ramps`, B's ramp bank accounts. */
const upstreamTest = twoConsolesTest({}, prepare)
  .extend('ada', { scope: 'file' }, ({ t }) => t.signIn('approver'))
  .extend('bo', { scope: 'file' }, ({ t, ada: _ada }) => t.signIn('approver'))
  .extend('ramps', { scope: 'file' }, ({ t }) => createRampFixture(t.b));

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

function transfer(t: TwoConsoles, amount: string, asset: string, blockChain: string) {
  return {
    category: 'TRANSFER',
    source: { type: 'VAULT', id: t.fixture.treasury.id },
    destination: { type: 'VAULT', id: t.fixture.ops.id },
    amount,
    asset,
    blockChain,
  };
}

async function review(initiator: StaffSession, body: unknown) {
  const res = await initiator.json(pathOf(reviewTransactionPolicy), post(body));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return PolicyPreviewResponse.parse(res.body).requirement;
}

async function create(initiator: StaffSession, body: unknown) {
  const res = await initiator.json(paths.transactions(), post(body));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return Transaction.parse(res.body).id ?? '';
}

async function approve(by: StaffSession, entityId: string) {
  const message = await by.json(`${paths.approvalMessage()}?entityId=${entityId}`);
  expect(message.status, JSON.stringify(message.body)).toBe(200);
  const { approvalId } = ApprovalMessageResponse.parse(message.body);
  const res = await by.json(paths.approvalAction(approvalId), post({ action: 'approve' }));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe('USD rules through an upstream custody API', () => {
  upstreamTest(
    'prices from the custody API: $500 needs one approval, $50,400 two; then the day’s cap blocks',
    async ({ t, initiator, ada, bo }) => {
      // $500 of USDC: under the threshold, as in sandbox mode.
      const small = transfer(t, '500', 'USDC', 'ETHEREUM');
      expect(await review(initiator, small)).toMatchObject({
        ruleId: null,
        outcome: { action: 'ALLOW', approvals: 1 },
      });
      expect(balanceReads).toHaveLength(1);
      // The price is kept: the create that follows the review reads no balances again.
      const smallId = await create(initiator, small);
      expect(balanceReads).toHaveLength(1);
      await approve(ada, smallId);
      expect(await t.b.status(smallId)).toBe('APPROVED');

      // 0.84 BTC at $60,000 is $50,400: the rule's two approvals.
      const big = transfer(t, '0.84', 'BTC', 'BITCOIN');
      expect(await review(initiator, big)).toMatchObject({
        ruleName: 'Big transfers',
        outcome: { action: 'ALLOW', approvals: 2 },
      });
      const bigId = await create(initiator, big);
      expect(await approve(ada, bigId)).toMatchObject({
        status: 'PENDING',
        policy: { ruleName: 'Big transfers', approvals: 1, required: 2 },
      });
      expect(await t.b.status(bigId)).toBe('PENDING');
      await approve(bo, bigId);
      expect(await t.b.status(bigId)).toBe('APPROVED');

      // $50,900 has left the treasury today (B's own amountInUSD): $2,000 more passes $52,000.
      const more = transfer(t, '2000', 'USDC', 'ETHEREUM');
      expect(await review(initiator, more)).toMatchObject({ ruleName: 'Daily cap' });
      const refused = await initiator.json(paths.transactions(), post(more));
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        code: 'POLICY_BLOCKED',
        message: expect.stringContaining('"Daily cap"'),
      });
    },
  );

  upstreamTest(
    'fails closed on an asset the custody API gives no price: 1 POL needs the two approvals',
    async ({ t, initiator }) => {
      expect(await review(initiator, transfer(t, '1', 'POL', 'POLYGON'))).toMatchObject({
        ruleName: 'Big transfers',
        outcome: { action: 'ALLOW', approvals: 2 },
      });
    },
  );

  upstreamTest(
    'judges an off-ramp from the quote it forwarded, before anything is sent',
    async ({ t, initiator, ramps }) => {
      const payout = (fromAmount: string) => ({
        source: { type: 'VAULT', id: t.fixture.treasury.id },
        destination: { type: 'BANK_ACCOUNT', id: ramps.usd.id },
        fromAsset: 'USDC',
        fromAmount,
        fromChain: 'ETHEREUM',
        toAsset: 'USD',
      });
      const reviewRamp = async (intent: object) => {
        const quoted = await initiator.json(QUOTE_PATH, post({ intent }));
        expect(quoted.status, JSON.stringify(quoted.body)).toBe(200);
        const quoteId = (quoted.body as { quotes: Array<{ quoteId: string }> }).quotes[0]?.quoteId;
        return initiator.json(pathOf(reviewRampPolicy), post({ intent, quoteId }));
      };
      expect((await reviewRamp(payout('2000'))).body).toMatchObject({
        requirement: { ruleName: 'Big payouts', outcome: { approvals: 2 } },
      });
      expect((await reviewRamp(payout('100'))).body).toMatchObject({
        requirement: { ruleName: 'Default', outcome: { approvals: 1 } },
      });
      // A quote this console never forwarded cannot be judged before it is executed.
      const unknown = await initiator.json(
        pathOf(reviewRampPolicy),
        post({ intent: payout('100'), quoteId: 'priced-elsewhere' }),
      );
      expect(unknown.status).toBe(400);
      expect(unknown.body).toMatchObject({
        code: 'QUOTE_NOT_FOUND',
        fields: [{ field: 'quoteId' }],
      });
    },
  );
});
