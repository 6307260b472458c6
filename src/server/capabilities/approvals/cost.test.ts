import { describe, expect, test } from 'vitest';
import type { CostFee } from '#contract/approval-cost.ts';
import type { Transaction } from '#contract/transaction.ts';
import { estimateBodyOf, sumCosts, tierOf, transactionCost } from './cost.ts';

/** What an approver is shown an approval costs: the arithmetic, without the app. */

const transfer = (over: Partial<Transaction> = {}): Transaction => ({
  id: 'tx_1',
  category: 'TRANSFER',
  status: 'PENDING',
  source: { type: 'VAULT', id: 'vault_1' },
  destination: { type: 'CONTACT', id: 'contact_1' },
  amount: '100',
  asset: 'USDC',
  blockChain: 'ETHEREUM',
  amountInUSD: '100',
  ...over,
});

const ethFee = (amount: string, usd: string | null): CostFee => ({
  amount,
  asset: 'ETH',
  blockChain: 'ETHEREUM',
  usd,
  tier: 'MEDIUM',
  tierDefaulted: false,
  basis: 'ESTIMATED',
});

describe('one transaction', () => {
  test('a token transfer leaves in two assets: the token and the chain fee in ETH, the total in USD', () => {
    const cost = transactionCost(transfer(), {
      amountUsd: '100',
      fee: ethFee('0.001', '3'),
      feeProblem: null,
    });
    expect(cost.leaving).toEqual([
      { amount: '100', asset: 'USDC', blockChain: 'ETHEREUM', usd: '100' },
      { amount: '0.001', asset: 'ETH', blockChain: 'ETHEREUM', usd: '3' },
    ]);
    expect(cost.totalUsd).toBe('103');
    expect(cost.feeExceedsAmount).toBe(false);
  });

  test('a fee in the amount’s own asset is added to it: one line leaves', () => {
    const cost = transactionCost(transfer({ asset: 'ETH', amount: '1.5', amountInUSD: '4500' }), {
      amountUsd: '4500',
      fee: ethFee('0.0021', '6.3'),
      feeProblem: null,
    });
    expect(cost.leaving).toEqual([
      { amount: '1.5021', asset: 'ETH', blockChain: 'ETHEREUM', usd: '4506.3' },
    ]);
    expect(cost.totalUsd).toBe('4506.3');
  });

  test('warns when the fee is more than what is sent, in the asset or else in USD', () => {
    const sameAsset = transactionCost(transfer({ asset: 'ETH', amount: '0.001' }), {
      amountUsd: '3',
      fee: ethFee('0.002', '6'),
      feeProblem: null,
    });
    expect(sameAsset.feeExceedsAmount).toBe(true);
    const inUsd = transactionCost(transfer({ amount: '2', amountInUSD: '2' }), {
      amountUsd: '2',
      fee: ethFee('0.001', '3'),
      feeProblem: null,
    });
    expect(inUsd.feeExceedsAmount).toBe(true);
    // Nothing to compare in: no warning rather than a guess.
    const unpriced = transactionCost(transfer({ amount: '2' }), {
      amountUsd: null,
      fee: ethFee('0.001', '3'),
      feeProblem: null,
    });
    expect(unpriced.feeExceedsAmount).toBe(false);
  });

  test('a contract call sending nothing is all fee: no warning, the fee is the total', () => {
    const call = transactionCost(
      transfer({ category: 'CONTRACT_CALL', amount: '0', asset: 'ETH', amountInUSD: '0' }),
      { amountUsd: '0', fee: ethFee('0.001', '3'), feeProblem: null },
    );
    expect(call.feeExceedsAmount).toBe(false);
    expect(call.totalUsd).toBe('3');
  });

  test('an unknown fee says why and leaves the USD total unknown', () => {
    const cost = transactionCost(transfer(), {
      amountUsd: '100',
      fee: null,
      feeProblem: 'The fee could not be estimated: no balance',
    });
    expect(cost).toMatchObject({
      fee: null,
      feeProblem: 'The fee could not be estimated: no balance',
      totalUsd: null,
      leaving: [{ amount: '100', asset: 'USDC' }],
    });
  });
});

describe('a selection', () => {
  test('sums per asset and in USD, counting what has no USD value', () => {
    const a = transactionCost(transfer({ id: 'a' }), {
      amountUsd: '100',
      fee: ethFee('0.001', '3'),
      feeProblem: null,
    });
    const b = transactionCost(transfer({ id: 'b', amount: '0.2', asset: 'ETH' }), {
      amountUsd: '600',
      fee: ethFee('0.0015', '4.5'),
      feeProblem: null,
    });
    const c = transactionCost(transfer({ id: 'c', amount: '50' }), {
      amountUsd: '50',
      fee: null,
      feeProblem: 'not estimated',
    });
    const total = sumCosts([a, b, c]);
    expect(total.perAsset).toEqual([
      {
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount: '150',
        fee: '0',
        total: '150',
        usd: '150',
      },
      {
        asset: 'ETH',
        blockChain: 'ETHEREUM',
        amount: '0.2',
        fee: '0.0025',
        total: '0.2025',
        usd: '607.5',
      },
    ]);
    expect(total).toMatchObject({
      amountUsd: '750',
      feeUsd: '7.5',
      totalUsd: '757.5',
      unpriced: 1,
    });
  });

  test('the same asset on two chains is two lines', () => {
    const eth = transactionCost(transfer({ id: 'a' }), {
      amountUsd: '100',
      fee: null,
      feeProblem: 'x',
    });
    const polygon = transactionCost(transfer({ id: 'b', blockChain: 'POLYGON' }), {
      amountUsd: '100',
      fee: null,
      feeProblem: 'x',
    });
    expect(sumCosts([eth, polygon]).perAsset.map((l) => l.blockChain)).toEqual([
      'ETHEREUM',
      'POLYGON',
    ]);
  });
});

describe('what is estimated', () => {
  test('a waiting transfer is estimated as its create body was, a token transfer as a transfer', () => {
    expect(estimateBodyOf(transfer({ category: 'TOKEN_TRANSFER' }))).toMatchObject({
      category: 'TRANSFER',
      source: { type: 'VAULT', id: 'vault_1' },
      destination: { type: 'CONTACT', id: 'contact_1' },
      amount: '100',
      asset: 'USDC',
      blockChain: 'ETHEREUM',
    });
  });

  test('a ramp or an incoming transfer has no network fee estimate', () => {
    expect(estimateBodyOf(transfer({ category: 'OFF_RAMP' }))).toBeNull();
    expect(estimateBodyOf(transfer({ transactionType: 'INCOMING' }))).toBeNull();
  });

  test('no tier named is the custody API’s default, HIGH, and says so', () => {
    expect(tierOf(transfer())).toEqual({ tier: 'HIGH', tierDefaulted: true });
    expect(tierOf(transfer({ gasParams: { feeTier: 'LOW' } }))).toEqual({
      tier: 'LOW',
      tierDefaulted: false,
    });
  });
});
