import { describe, expect, it } from 'vitest';
import type { Transaction } from '#contract/transaction-record.ts';
import { describeTransaction } from './transaction-summary.ts';

const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const word = (hex: string) => hex.replace(/^0x/, '').padStart(64, '0');

describe('describeTransaction', () => {
  it('names a transfer by amount, destination and chain', () => {
    const tx: Transaction = {
      category: 'TRANSFER',
      amount: '1000',
      asset: 'USDC',
      blockChain: 'ETHEREUM',
      destination: { type: 'CONTACT', name: 'Exchange' },
    };
    expect(describeTransaction(tx)).toBe('Transfer of 1,000 USDC to Exchange on Ethereum');
  });

  it('names what a contract call does, and the native value it sends as well', () => {
    const spender = '0x1111111111111111111111111111111111110582';
    const approve = `0x095ea7b3${word(spender)}${'f'.repeat(64)}`;
    const base: Transaction = {
      category: 'CONTRACT_CALL',
      amount: '0',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      data: { callData: approve, toAddress: USDC },
    };
    expect(describeTransaction(base)).toBe('Unlimited USDC approval to 0x1111…0582 on Ethereum');
    expect(describeTransaction({ ...base, amount: '0.5' })).toBe(
      'Unlimited USDC approval to 0x1111…0582, sending 0.5 ETH, on Ethereum',
    );
  });

  it('says so when a contract call came back without its data', () => {
    expect(
      describeTransaction({ category: 'CONTRACT_CALL', amount: '0', blockChain: 'ETHEREUM' }),
    ).toBe('Contract call on Ethereum, its data not returned by the custody API');
  });
});
