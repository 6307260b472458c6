import { describe, expect } from 'vitest';
import { ApprovalCosts } from '#contract/approval-cost.ts';
import { add } from '#contract/decimal.ts';
import { pathOf, toQueryString } from '#contract/endpoint.ts';
import { approvalCosts } from '#contract/endpoints/approvals.ts';
import { estimateFee } from '#contract/endpoints/transaction-writes.ts';
import { paths } from '#contract/paths.ts';
import { EstimatedFeeResponse, Transaction } from '#contract/transaction.ts';
import type { EngineFixture, EngineTestApp } from '../../test/engine-test-app.ts';
import { engineTest } from '../../test/engine-test.ts';
import { createSubOrg } from '../../test/fixtures.ts';
import { signInStaff, type StaffSession } from '../../test/staff-session.ts';

/**
 * What the approve dialogs show an approver before money moves: each waiting
 * transaction's network fee, estimated now for its own tier, what leaves in
 * all, and a selection's sums, worked out by the server.
 */

async function staffOf(t: EngineTestApp) {
  const other = await createSubOrg(t.db, t.orgId, 'Elsewhere desk');
  const as = (role: 'initiator' | 'approver', name: string, subOrgIds?: string[]) =>
    signInStaff(t.app, t.db, t.authClock, { role, name, subOrgIds: subOrgIds ?? null });
  return {
    ivy: await as('initiator', 'Ivy Costs'),
    ada: await as('approver', 'Ada Costs'),
    elsewhere: await as('approver', 'Eve Costs', [other.id]),
  };
}

const costTest = engineTest.extend('staff', { scope: 'file' }, ({ t }) => staffOf(t));

const send = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

const transferBody = (f: EngineFixture, amount: string, asset: string) => ({
  category: 'TRANSFER',
  source: { type: 'VAULT', id: f.treasury.id },
  destination: { type: 'CONTACT', id: f.contacts.eth.id },
  amount,
  asset,
  blockChain: 'ETHEREUM',
});

async function create(by: StaffSession, body: Record<string, unknown>) {
  const made = await by.json(paths.transactions(), send(body));
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return Transaction.parse(made.body).id ?? '';
}

async function estimate(by: StaffSession, body: Record<string, unknown>) {
  const res = await by.json(pathOf(estimateFee), send(body));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return EstimatedFeeResponse.parse(res.body);
}

async function costsOf(by: StaffSession, ...ids: string[]) {
  const res = await by.json(
    `${pathOf(approvalCosts)}${toQueryString({ entityIds: ids.join(',') })}`,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ApprovalCosts.parse(res.body);
}

describe('the cost of approving', () => {
  costTest(
    'is the fee of the transaction’s own tier, estimated now, added to what it sends',
    async ({ f, staff }) => {
      const { ivy, ada } = staff;
      const body = transferBody(f, '0.5', 'ETH');
      const id = await create(ivy, { ...body, gasParams: { feeTier: 'MEDIUM' } });
      // The engine's clock stands still: the estimate now is the one the cost is made from.
      const medium = (await estimate(ivy, body)).medium;

      const { results } = await costsOf(ada, id);
      expect(results).toHaveLength(1);
      const [cost] = results;
      expect(cost?.fee).toMatchObject({
        amount: medium.expectedFeeInAsset,
        asset: 'ETH',
        tier: 'MEDIUM',
        tierDefaulted: false,
        basis: 'ESTIMATED',
      });
      expect(cost?.amount).toMatchObject({ amount: '0.5', asset: 'ETH' });
      // One asset leaves: the amount and its fee together.
      expect(cost?.leaving).toEqual([
        {
          amount: add('0.5', medium.expectedFeeInAsset),
          asset: 'ETH',
          blockChain: 'ETHEREUM',
          usd: add(cost?.amount?.usd ?? 'x', cost?.fee?.usd ?? 'x'),
        },
      ]);
      expect(cost?.totalUsd).toBe(add(cost?.amount?.usd ?? 'x', cost?.fee?.usd ?? 'x'));
      expect(cost?.feeExceedsAmount).toBe(false);
    },
  );

  costTest(
    'is at the default tier when none was chosen, and sums a selection per asset and in USD',
    async ({ f, staff }) => {
      const { ivy, ada } = staff;
      const usdc = await create(ivy, transferBody(f, '250', 'USDC'));
      const eth = await create(ivy, {
        ...transferBody(f, '0.25', 'ETH'),
        gasParams: { feeTier: 'LOW' },
      });
      const { results, sum } = await costsOf(ada, usdc, eth);
      expect(results.map((r) => r.entityId)).toEqual([usdc, eth]);
      const [token, native] = results;
      // The sandbox records the custody API's default tier on the transaction itself.
      expect(token?.fee).toMatchObject({ tier: 'HIGH', asset: 'ETH' });
      // A token transfer pays its fee in the chain's coin: two assets leave.
      expect(token?.leaving.map((l) => l.asset)).toEqual(['USDC', 'ETH']);
      const ethLine = sum.perAsset.find((l) => l.asset === 'ETH');
      expect(ethLine).toMatchObject({
        amount: '0.25',
        fee: add(token?.fee?.amount ?? 'x', native?.fee?.amount ?? 'x'),
      });
      expect(sum.perAsset.find((l) => l.asset === 'USDC')).toMatchObject({
        amount: '250',
        fee: '0',
        total: '250',
      });
      expect(sum.totalUsd).toBe(add(token?.totalUsd ?? 'x', native?.totalUsd ?? 'x'));
      expect(sum.unpriced).toBe(0);
    },
  );

  costTest('warns when the fee is more than what is sent', async ({ f, staff }) => {
    const { ivy, ada } = staff;
    const id = await create(ivy, transferBody(f, '0.000001', 'ETH'));
    const [cost] = (await costsOf(ada, id)).results;
    expect(cost?.feeExceedsAmount).toBe(true);
  });

  costTest('leaves out what the member may not see, and ids of nothing', async ({ f, staff }) => {
    const { ivy, elsewhere } = staff;
    const id = await create(ivy, transferBody(f, '0.1', 'ETH'));
    expect(await costsOf(elsewhere, id, 'no-such-transaction')).toMatchObject({
      results: [],
      sum: { perAsset: [], totalUsd: '0', unpriced: 0 },
    });
  });

  costTest('refuses a request naming no id, naming the field', async ({ staff }) => {
    const res = await staff.ada.json(`${pathOf(approvalCosts)}?entityIds=`);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('entityIds');
  });
});
