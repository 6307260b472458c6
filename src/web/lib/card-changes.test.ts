import { describe, expect, it } from 'vitest';
import { transferCard } from '../test/signing.ts';
import { changesSentence, describeCardChanges } from './card-changes.ts';

const intent = (over: Parameters<typeof transferCard>[1] = {}) => transferCard('tx', over).intent;

describe('describeCardChanges', () => {
  it('says nothing of two equal cards', () => {
    expect(describeCardChanges(intent(), intent())).toEqual([]);
  });

  it('names a raised fee ceiling as risen, and a new destination and amount', () => {
    const before = intent();
    const after = intent({
      amount: '0.75',
      feeCeiling: { tier: 'HIGH', maxFee: '0.005', asset: 'ETH', blockChain: 'ETHEREUM' },
      destination: { ...before.destination!, name: 'Mallory', address: '0xdef' },
    });
    expect(describeCardChanges(before, after)).toEqual([
      'the destination changed from Exchange (0xabc0000000000000000000000000000000000001) to Mallory (0xdef)',
      'the amount changed from 0.5 ETH to 0.75 ETH',
      'the fee ceiling rose from 0.0021 ETH (medium tier) to 0.005 ETH (high tier)',
    ]);
  });

  it('names a new quote and rule, and still says a difference it has no words for', () => {
    const quote = {
      quoteId: 'q_1',
      provider: 'P',
      rate: '1',
      arrivesAmount: '99',
      arrivesAsset: 'USD',
      expiresAt: null,
    };
    expect(
      describeCardChanges(intent({ quote }), intent({ quote: { ...quote, quoteId: 'q_2' } })),
    ).toEqual(['the quote changed from q_1 (arrives 99 USD) to q_2 (arrives 99 USD)']);
    const rule = { name: 'Two', summary: '2 approvals from admins', policyVersion: 1 };
    expect(
      describeCardChanges(intent({ rule }), intent({ rule: { ...rule, policyVersion: 2 } })),
    ).toEqual(['the card was worked out again and differs in a detail']);
  });

  it('reads as one sentence', () => {
    expect(changesSentence(['the amount changed from 1 ETH to 2 ETH', 'the asset changed'])).toBe(
      'The amount changed from 1 ETH to 2 ETH; the asset changed.',
    );
  });
});
