import { describe, expect } from 'vitest';
import { add, sub } from '#contract/decimal.ts';
import { paths } from '#contract/paths.ts';
import type { Transaction } from '#contract/transaction.ts';
import { engineTest as it } from '../../../test/engine-test.ts';
import type { EngineFixture, EngineTestApp } from '../../../test/engine-test-app.ts';

const HOUR = 3_600_000;

const stake = (f: EngineFixture, amount: string, over: Record<string, unknown> = {}) => ({
  category: 'STAKE',
  source: { type: 'VAULT', id: f.treasury.id },
  asset: 'ETH',
  blockChain: 'ETHEREUM',
  amount,
  ...over,
});
const unstake = (f: EngineFixture, amount: string, over: Record<string, unknown> = {}) =>
  stake(f, amount, { subCategory: 'UNSTAKE', ...over });

async function completed(t: EngineTestApp, body: Record<string, unknown>): Promise<Transaction> {
  const res = await t.post(paths.transactions(), body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const id = String(res.body.id);
  expect(await t.approve(id)).toBe(true);
  await t.run(HOUR);
  const tx = (await t.get(paths.transaction(id))).body as Transaction;
  expect(tx.status).toBe('COMPLETED');
  return tx;
}

describe('unstaking (category STAKE, sub-category UNSTAKE)', () => {
  it('returns the staked amount to the vault at completion, and never more than is staked', async ({
    t,
    f,
    requests: { create, expectRefused },
  }) => {
    const before = await t.balance(f.treasury.id, 'ETH', 'ETHEREUM');
    const staked = await completed(t, stake(f, '2'));
    expect(staked.subCategory).toBe('STAKE');

    // More than the vault has staked on the chain: a 400 naming the amount and what is staked.
    const over = await expectRefused(unstake(f, '2.5'), 'amount', 'UNSTAKE_EXCEEDS_STAKED');
    expect(JSON.stringify(over.fields)).toContain('staked 2 ETH');

    const pending = await create(unstake(f, '1.5', { externalId: 'unstake-part' }));
    expect(pending.status, JSON.stringify(pending.body)).toBe(200);
    expect(pending.body).toMatchObject({
      category: 'STAKE',
      subCategory: 'UNSTAKE',
      amount: '1.5',
    });
    // What an unstake on its way already claims is not staked twice: 1.5 + 1 > 2.
    await expectRefused(unstake(f, '1'), 'amount', 'UNSTAKE_EXCEEDS_STAKED');

    const id = String(pending.body.id);
    expect(await t.approve(id)).toBe(true);
    await t.run(HOUR);
    const done = (await t.get(paths.transaction(id))).body as Transaction;
    expect(done.status).toBe('COMPLETED');

    // Staking took 2 and its fee; unstaking gave back 1.5 less its own fee.
    const expected = add(
      sub(sub(before.amount, '2'), staked.fees?.amount ?? '0'),
      sub('1.5', done.fees?.amount ?? '0'),
    );
    expect((await t.balance(f.treasury.id, 'ETH', 'ETHEREUM')).amount).toBe(expected);
    // Half a unit is still staked: exactly that can come back, no more.
    await expectRefused(unstake(f, '0.6'), 'amount', 'UNSTAKE_EXCEEDS_STAKED');
    expect((await create(unstake(f, '0.5'))).status).toBe(200);
  });

  it('is refused where the sandbox does not stake, and nothing staked means nothing to unstake', async ({
    f,
    requests: { expectRefused },
  }) => {
    await expectRefused(
      unstake(f, '1', { blockChain: 'BASE' }),
      'blockChain',
      'STAKE_NOT_SUPPORTED',
    );
    await expectRefused(
      unstake(f, '1', {
        asset: 'POL',
        blockChain: 'POLYGON',
        source: { type: 'VAULT', id: f.ops.id },
      }),
      'amount',
      'UNSTAKE_EXCEEDS_STAKED',
    );
    await expectRefused(stake(f, '1', { subCategory: 'CLAIM' }), 'subCategory');
  });
});
