import { describe, expect, it } from 'vitest';
import { sum } from '#contract/decimal.ts';
import {
  STAKING_REWARDS,
  epochBoundaryFrom,
  rewardsDue,
  stakedThroughout,
  type StakeEvent,
} from './staking-rewards.ts';

const DAY = 86_400_000;
const at = (iso: string) => new Date(iso).getTime();
const ETH = STAKING_REWARDS.ETHEREUM ?? { annualRate: '', epochMs: 0 };
const SOL = STAKING_REWARDS.SOLANA ?? { annualRate: '', epochMs: 0 };

describe('staking rewards, pure', () => {
  it('pays ETH 3.2 % a year daily at midnight UTC, to the wei rounded down, the remainder carried so a year pays exactly 3.2 %', () => {
    const events: StakeEvent[] = [{ at: at('2030-01-01T13:00:00Z'), delta: '10' }];
    const due = rewardsDue({
      events,
      terms: ETH,
      decimals: 18,
      paidUntil: at('2030-01-01T13:00:00Z'),
      carry: '0',
      now: at('2031-01-02T00:00:00Z'),
    });
    // The stake starts earning with the first epoch after it completed: 2 January.
    expect(due.payments[0]).toEqual({
      at: at('2030-01-03T00:00:00Z'),
      staked: '10',
      amount: '0.000876712328767123',
    });
    expect(due.payments).toHaveLength(365);
    expect(sum(due.payments.map((p) => p.amount))).toBe('0.32');
    expect(due.carry).toBe('0');
    expect(due.paidUntil).toBe(at('2031-01-02T00:00:00Z'));
    expect(due.nextAt).toBe(at('2031-01-03T00:00:00Z'));
  });

  it('carries what is below a unit: 2 ETH pays …424, then …425 once the remainders add up to a wei', () => {
    const due = rewardsDue({
      events: [{ at: 0, delta: '2' }],
      terms: ETH,
      decimals: 18,
      paidUntil: at('2030-01-01T00:00:00Z'),
      carry: '0',
      now: at('2030-01-04T00:00:00Z'),
    });
    expect(due.payments.map((p) => p.amount)).toEqual([
      '0.000175342465753424',
      '0.000175342465753425',
      '0.000175342465753424',
    ]);
  });

  it('pays SOL 7 % a year per two-day epoch, to the lamport', () => {
    const due = rewardsDue({
      events: [{ at: 0, delta: '100' }],
      terms: SOL,
      decimals: 9,
      paidUntil: at('2030-01-01T00:00:00Z'),
      carry: '0',
      now: at('2030-01-08T00:00:00Z'),
    });
    // Two-day epochs counted from 1970-01-01: 2 January 2030 starts one.
    expect(due.payments[0]?.at).toBe(at('2030-01-04T00:00:00Z'));
    expect(due.payments.map((p) => p.amount)).toEqual([
      '0.038356164',
      '0.038356164',
      '0.038356165',
    ]);
  });

  it('an epoch pays on the least staked in it: a stake added mid-epoch waits for the next, an unstake asked for mid-epoch stops its part at once', () => {
    const events: StakeEvent[] = [
      { at: at('2030-01-01T06:00:00Z'), delta: '10' },
      { at: at('2030-01-02T12:00:00Z'), delta: '5' },
      { at: at('2030-01-03T12:00:00Z'), delta: '-9' },
    ];
    expect(stakedThroughout(events, at('2030-01-02T00:00:00Z'), at('2030-01-03T00:00:00Z'))).toBe(
      '10',
    );
    expect(stakedThroughout(events, at('2030-01-03T00:00:00Z'), at('2030-01-04T00:00:00Z'))).toBe(
      '6',
    );
    const due = rewardsDue({
      events,
      terms: ETH,
      decimals: 18,
      paidUntil: at('2030-01-01T06:00:00Z'),
      carry: '0',
      now: at('2030-01-05T01:00:00Z'),
    });
    expect(due.payments.map((p) => p.staked)).toEqual(['10', '6', '6']);
  });

  it('pays nothing on nothing staked, never below zero, and at most maxEpochs at a time', () => {
    expect(stakedThroughout([{ at: 0, delta: '-3' }], 10, 20)).toBe('0');
    const none = rewardsDue({
      events: [],
      terms: ETH,
      decimals: 18,
      paidUntil: 0,
      carry: '0',
      now: 10 * DAY,
    });
    expect(none.payments).toEqual([]);
    expect(none.paidUntil).toBe(10 * DAY);
    const capped = rewardsDue({
      events: [{ at: 0, delta: '1' }],
      terms: ETH,
      decimals: 18,
      paidUntil: 0,
      carry: '0',
      now: 10 * DAY,
      maxEpochs: 4,
    });
    expect(capped.payments).toHaveLength(4);
    expect(capped.paidUntil).toBe(4 * DAY);
    expect(epochBoundaryFrom(DAY + 1, DAY)).toBe(2 * DAY);
    expect(epochBoundaryFrom(DAY, DAY)).toBe(DAY);
  });
});
