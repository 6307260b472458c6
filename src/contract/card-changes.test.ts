import { describe, expect, it } from 'vitest';
import type { ApprovalCardIntent } from './approval-card.ts';
import { cardChanges, changesSentence, describeCardChanges, intentChange } from './card-changes.ts';

function intent(over: Partial<ApprovalCardIntent> = {}): ApprovalCardIntent {
  return {
    kind: 'TRANSACTION',
    category: 'TRANSFER',
    source: { id: 'v_hot', name: 'Hot wallet' },
    destination: {
      type: 'CONTACT',
      id: 'c_1',
      name: 'Exchange',
      address: '0xabc0000000000000000000000000000000000001',
      blockChain: 'ETHEREUM',
      rail: null,
      last4: null,
      ours: false,
      approvedContact: true,
      approvedContactSince: null,
    },
    asset: 'ETH',
    blockChain: 'ETHEREUM',
    amount: '0.5',
    assets: null,
    feeCeiling: { tier: 'MEDIUM', maxFee: '0.0021', asset: 'ETH', blockChain: 'ETHEREUM' },
    call: null,
    quote: null,
    rule: null,
    ...over,
  };
}

const fee = (maxFee: string, tier: 'LOW' | 'MEDIUM' | 'HIGH' = 'MEDIUM') => ({
  tier,
  maxFee,
  asset: 'ETH',
  blockChain: 'ETHEREUM',
});

describe('describeCardChanges', () => {
  it('says nothing of two equal cards', () => {
    expect(describeCardChanges(intent(), intent())).toEqual([]);
    expect(intentChange(intent(), intent())).toBeNull();
  });

  it('names a raised fee ceiling as risen, and a new destination and amount', () => {
    const before = intent();
    const after = intent({
      amount: '0.75',
      feeCeiling: fee('0.005', 'HIGH'),
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
    expect(changesSentence([])).toBe('Nothing it shows changed.');
  });
});

describe('intentChange: what voids a signature, in the same words the dialog shows', () => {
  it('keeps a vote whose fee fell, or rose within the headroom; voids one past it', () => {
    const signed = intent({ feeCeiling: fee('0.002') });
    expect(intentChange(signed, intent({ feeCeiling: fee('0.001') }))).toBeNull();
    expect(intentChange(signed, intent({ feeCeiling: fee('0.0025') }))).toBeNull();
    expect(intentChange(signed, intent({ feeCeiling: fee('0.0026') }))).toBe(
      'the fee ceiling rose from 0.002 ETH to 0.0026 ETH',
    );
    // The dialog still says a move within the headroom; it does not void.
    expect(cardChanges(signed, intent({ feeCeiling: fee('0.0025') }))).toEqual([
      { text: 'the fee ceiling rose from 0.002 ETH to 0.0025 ETH', voids: false },
    ]);
  });

  it('voids on another tier, even at a lower fee', () => {
    expect(intentChange(intent(), intent({ feeCeiling: fee('0.001', 'HIGH') }))).toBe(
      'the fee ceiling fell from 0.0021 ETH (medium tier) to 0.001 ETH (high tier)',
    );
  });

  it('keeps a vote when only names or the rule’s words were read afresh', () => {
    const before = intent({
      rule: { name: 'Two', summary: '2 approvals from admins', policyVersion: 1 },
    });
    const after = intent({
      source: { id: 'v_hot', name: 'Hot wallet (renamed)' },
      destination: { ...before.destination!, name: 'Exchange desk' },
      rule: { name: 'Two (renamed)', summary: '2 approvals from admins', policyVersion: 1 },
    });
    expect(intentChange(before, after)).toBeNull();
    expect(describeCardChanges(before, after)).toEqual([
      'the source vault changed from Hot wallet to Hot wallet (renamed)',
      'the destination changed from Exchange (0xabc0000000000000000000000000000000000001) to Exchange desk (0xabc0000000000000000000000000000000000001)',
      'the approval rule changed from “Two” (2 approvals from admins) to “Two (renamed)” (2 approvals from admins)',
    ]);
  });

  it('voids on what leaves, where it goes, the chain, the call and the quote, naming each', () => {
    const signed = intent();
    expect(intentChange(signed, intent({ amount: '0.6' }))).toBe(
      'the amount changed from 0.5 ETH to 0.6 ETH',
    );
    expect(intentChange(signed, intent({ source: { id: 'v_cold', name: 'Hot wallet' } }))).toBe(
      'the source vault changed from Hot wallet (v_hot) to Hot wallet (v_cold)',
    );
    expect(intentChange(signed, intent({ blockChain: 'BASE' }))).toBe(
      'what it is changed from Transfer on ETHEREUM to Transfer on BASE',
    );
    expect(intentChange(signed, intent({ category: 'CONTRACT_CALL' }))).toBe(
      'what it is changed from Transfer on ETHEREUM to Contract call on ETHEREUM',
    );
    const call = {
      description: 'Unlimited USDC approval to 0x1111…0582',
      contract: '0xA0b8',
      function: 'approve(address,uint256)',
      spender: '0x1111',
      amount: '1',
      unlimited: true,
    };
    expect(intentChange(intent({ call }), intent({ call: { ...call, spender: '0x2222' } }))).toBe(
      'the contract call’s details changed',
    );
    const quote = {
      quoteId: 'q_1',
      provider: 'P',
      rate: '1',
      arrivesAmount: '99',
      arrivesAsset: 'USD',
      expiresAt: null,
    };
    expect(intentChange(intent({ quote }), intent({ quote: { ...quote, rate: '1.1' } }))).toBe(
      'the quote’s details changed',
    );
    // Several at once are all said.
    expect(intentChange(signed, intent({ amount: '0.6', asset: 'USDC' }))).toBe(
      'the asset changed from ETH to USDC; the amount changed from 0.5 ETH to 0.6 USDC',
    );
  });

  it('voids when a destination is another party with the same name', () => {
    const signed = intent();
    const now = intent({ destination: { ...signed.destination!, id: 'c_2' } });
    expect(intentChange(signed, now)).toBe('the destination’s details changed');
  });

  it('voids a payment run’s vote when any of its rows changed', () => {
    const run = {
      name: 'Vendors',
      rowCount: 3,
      rowsDigest: 'a'.repeat(64),
      sourceVaults: [{ id: 'v_1', name: 'Treasury' }],
      totals: [{ asset: 'USDC', blockChain: 'ETHEREUM', amount: '3000' }],
      totalUsd: '3000',
      fees: [],
      feesUsd: null,
    };
    const signed = intent({ kind: 'PAYMENT_RUN', category: 'PAYMENT_RUN', run });
    expect(
      intentChange(signed, intent({ kind: 'PAYMENT_RUN', category: 'PAYMENT_RUN', run })),
    ).toBe(null);
    const edited = intent({
      kind: 'PAYMENT_RUN',
      category: 'PAYMENT_RUN',
      run: { ...run, rowsDigest: 'b'.repeat(64) },
    });
    expect(intentChange(signed, edited)).toBe(
      'the run changed from 3 rows (aaaaaaaa…) to 3 rows (bbbbbbbb…)',
    );
  });
});
