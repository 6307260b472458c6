import { describe, expect, it } from 'vitest';
import type { Transaction } from '#contract/transaction-record.ts';
import { movementsOf } from './movements.ts';

const vault = (id: string) => ({ type: 'VAULT' as const, id });
const ours = new Set(['v1', 'v2', 'gas']);

const transfer = (over: Partial<Transaction>): Transaction => ({
  id: 't1',
  status: 'COMPLETED',
  vaultId: 'v1',
  blockChain: 'ETHEREUM',
  source: { ...vault('v1'), name: 'Treasury' },
  destination: { type: 'EXTERNAL', address: '0xabc', name: 'Exchange' },
  ...over,
});

const kinds = (tx: Transaction) =>
  movementsOf(tx, ours).map((m) => [m.seq, m.vaultId, m.kind, m.asset, m.chain, m.amount]);

describe('a custody API transaction as ledger movements', () => {
  it('books each of our vaults’ balance changes, the fee its own movement', () => {
    const tx = transfer({
      fees: { amount: '0.001', asset: 'ETH' },
      balanceChanges: {
        changes: [
          { party: vault('v1'), asset: 'ETH', amount: '-1', chain: 'ETHEREUM' },
          { party: { type: 'EXTERNAL', address: '0xabc' }, asset: 'ETH', amount: '1' },
          { party: vault('v1'), asset: 'ETH', amount: '-0.001', chain: 'ETHEREUM' },
        ],
      },
    });
    expect(kinds(tx)).toEqual([
      [0, 'v1', 'AMOUNT', 'ETH', 'ETHEREUM', '-1'],
      [1, 'v1', 'FEE', 'ETH', 'ETHEREUM', '-0.001'],
    ]);
    expect(movementsOf(tx, ours)[0]?.counterparty).toMatchObject({ name: 'Exchange' });
    expect(movementsOf(tx, ours)[1]?.counterparty).toBeNull();
  });

  it('splits a fee carried inside a debit, preferring the transaction’s own vault', () => {
    const tx = transfer({
      fees: { amount: '0.5', asset: 'USDC' },
      balanceChanges: {
        changes: [
          { party: vault('v2'), asset: 'USDC', amount: '-3' },
          { party: vault('v1'), asset: 'USDC', amount: '-10.5' },
        ],
      },
    });
    expect(kinds(tx)).toEqual([
      [0, 'v2', 'AMOUNT', 'USDC', 'ETHEREUM', '-3'],
      [1, 'v1', 'AMOUNT', 'USDC', 'ETHEREUM', '-10'],
      [2, 'v1', 'FEE', 'USDC', 'ETHEREUM', '-0.5'],
    ]);
  });

  it('a fee paid by a gas vault of ours is that vault’s; one paid by nobody of ours is not booked', () => {
    const changes = [
      { party: vault('v1'), asset: 'USDT', amount: '-5', chain: 'TRON' },
      { party: vault('v2'), asset: 'USDT', amount: '5', chain: 'TRON' },
      { party: vault('gas'), asset: 'TRX', amount: '-12', chain: 'TRON' },
    ];
    const tx = transfer({ blockChain: 'TRON', fees: { amount: '12', asset: 'TRX' } });
    expect(kinds({ ...tx, balanceChanges: { changes } }).map((m) => m[2])).toEqual([
      'AMOUNT',
      'AMOUNT',
      'FEE',
    ]);
    const theirs = changes.slice(0, 2);
    expect(kinds({ ...tx, balanceChanges: { changes: theirs } }).map((m) => m[2])).toEqual([
      'AMOUNT',
      'AMOUNT',
    ]);
  });

  it('a reverted call books its burned fee; a transaction still on its way, declined or failed before the chain, nothing', () => {
    const fee = { party: vault('v1'), asset: 'ETH', amount: '-0.002' };
    const reverted = transfer({
      status: 'FAILED',
      fees: { amount: '0.002', asset: 'ETH' },
      balanceChanges: { changes: [fee] },
    });
    expect(kinds(reverted)).toEqual([[0, 'v1', 'FEE', 'ETH', 'ETHEREUM', '-0.002']]);
    for (const status of ['SUBMITTED', 'DECLINED'] as const)
      expect(kinds({ ...reverted, status })).toEqual([]);
    expect(kinds({ ...reverted, balanceChanges: { changes: [] } })).toEqual([]);
  });
});
