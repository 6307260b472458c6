import { describe, expect } from 'vitest';
import { add, mul, round, sub } from '#contract/decimal.ts';
import { pathOf } from '#contract/endpoint.ts';
import { ledgerHistory, ledgerStatement } from '#contract/endpoints/ledger.ts';
import { LedgerHistoryResponse, LedgerStatementResponse } from '#contract/ledger.ts';
import { paths, toQueryString } from '#contract/paths.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { EngineTestApp } from '../../../test/engine-test-app.ts';
import { engineTest as it } from '../../../test/engine-test.ts';
import { payStakingRewards } from './staking-rewards.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

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

describe('staking rewards paid by the sandbox', () => {
  it('a stake of 2 ETH is paid 3.2 % a year each UTC day on the simulator’s clock, as REWARD movements in the balance, statement and history; unstaking stops it', async ({
    t,
    f,
  }) => {
    // The file's own treasury: no other test stakes from it.
    const vault = f.treasury;
    // The clock starts mid-day: the day after the stake completes is its first epoch.
    t.clock.set('2030-03-01T12:00:00Z');
    const begun = t.clock.now();
    const stake = { category: 'STAKE', source: { type: 'VAULT', id: vault.id }, asset: 'ETH' };
    await completed(t, { ...stake, blockChain: 'ETHEREUM', amount: '2' });
    const staked = (await t.balance(vault.id, 'ETH', 'ETHEREUM')).amount;

    // Nothing yet: the first epoch (2 March, UTC) has not ended.
    expect(await payStakingRewards(t.db, t.clock.now())).toBe(0);
    t.clock.set('2030-03-04T06:00:00Z');
    expect(await payStakingRewards(t.db, t.clock.now())).toBe(2);
    // Paid once: the same time again pays nothing.
    expect(await payStakingRewards(t.db, t.clock.now())).toBe(0);
    const rewards = ['0.000175342465753424', '0.000175342465753425'];
    const afterRewards = add(staked, add(rewards[0] ?? '', rewards[1] ?? ''));
    expect((await t.balance(vault.id, 'ETH', 'ETHEREUM')).amount).toBe(afterRewards);

    const statementOf = async (to: Date) => {
      const res = await t.get(
        `${pathOf(ledgerStatement)}${toQueryString({
          vaultId: vault.id,
          from: begun.toISOString(),
          to: to.toISOString(),
        })}`,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return LedgerStatementResponse.parse(res.body);
    };
    const statement = await statementOf(new Date(t.clock.now().getTime() + 1));
    const rewardLines = statement.results.filter((l) => l.kind === 'REWARD');
    expect(
      rewardLines.map((l) => [l.at, l.amount, l.fee, l.counterparty, l.transactionId]),
    ).toEqual([
      ['2030-03-03T00:00:00.000Z', rewards[0], '0', 'Lido staking contract', null],
      ['2030-03-04T00:00:00.000Z', rewards[1], '0', 'Lido staking contract', null],
    ]);
    expect(rewardLines[0]?.memo).toContain('3.2 % a year');
    expect(rewardLines[1]?.balanceAfter).toBe(afterRewards);
    const eth = statement.totals.find((x) => x.asset === 'ETH');
    expect(eth?.closing).toBe(afterRewards);

    // The history's rewards flow: each day's reward at its own price, to the cent.
    const history = await t.get(
      `${pathOf(ledgerHistory)}${toQueryString({ vaultId: vault.id, days: '7' })}`,
    );
    expect(history.status, JSON.stringify(history.body)).toBe(200);
    const { from, flows } = LedgerHistoryResponse.parse(history.body);
    const dayIndex = (day: string) => (Date.parse(day) - Date.parse(from)) / DAY;
    const price = rewardLines[0]?.usdPrice ?? '';
    expect(flows.rewardsUsd[dayIndex('2030-03-03')]).toBe(round(mul(rewards[0] ?? '', price), 2));
    expect(flows.rewardsUsd[dayIndex('2030-03-02')]).toBeNull();

    // Unstake it all (asked on 4 March): 4 March's epoch earns nothing, nor any after.
    await completed(t, {
      ...stake,
      blockChain: 'ETHEREUM',
      amount: '2',
      subCategory: 'UNSTAKE',
    });
    t.clock.set('2030-03-09T06:00:00Z');
    expect(await payStakingRewards(t.db, t.clock.now())).toBe(0);
    const later = await statementOf(new Date(t.clock.now().getTime() + 1));
    expect(later.results.filter((l) => l.kind === 'REWARD')).toHaveLength(2);
    const balance = (await t.balance(vault.id, 'ETH', 'ETHEREUM')).amount;
    expect(later.totals.find((x) => x.asset === 'ETH')?.closing).toBe(balance);
    // What came back: the 2 staked, less the unstake's fee; the rewards stayed.
    const unstakeFee = later.results.filter((l) => l.kind === 'FEE').at(-1)?.fee ?? '';
    expect(balance).toBe(sub(add(afterRewards, '2'), unstakeFee));
  });
});
