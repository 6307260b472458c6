import { describe, expect, it } from 'vitest';
import type { ApprovalItem } from '#contract/approval-inbox.ts';
import {
  compareInboxOrder,
  describeItem,
  describeItemParts,
  formatAge,
  inboxNeighbours,
  initiatorName,
} from './approval-inbox-items.ts';

const base = { subOrgId: null, createdById: 'staff_ivan', yours: false, initiator: null };

function tx(id: string, createdAt: string, over: Partial<ApprovalItem> = {}): ApprovalItem {
  return {
    kind: 'TRANSACTION',
    ...base,
    id,
    createdAt,
    vault: { id: 'v1', name: 'Hot wallet' },
    transaction: {
      id,
      category: 'TRANSFER',
      amount: '0.5',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      destination: { type: 'CONTACT', name: 'Exchange' },
    },
    ...over,
  } as ApprovalItem;
}

function account(id: string, createdAt: string): ApprovalItem {
  return {
    kind: 'BANK_ACCOUNT',
    ...base,
    id,
    createdAt,
    bankAccount: {
      id,
      paymentMethod: 'US_ACH',
      accountName: 'Acme Payroll',
      bankName: 'JPMorgan Chase',
      accountNumber: '•••• 6789',
    },
  } as ApprovalItem;
}

describe('the inbox order, as the server keeps it', () => {
  it('is newest first, a transaction before a bank account at one instant, then id descending', () => {
    const at = '2030-01-01T00:00:00.000Z';
    const items = [
      account('b', at),
      tx('a', '2029-12-31T00:00:00.000Z'),
      tx('c', at),
      tx('d', at),
      tx('e', '2030-01-02T00:00:00.000Z'),
    ];
    expect([...items].sort(compareInboxOrder).map((i) => i.id)).toEqual(['e', 'd', 'c', 'b', 'a']);
  });
});

describe('inboxNeighbours', () => {
  const items = [
    tx('t4', '2030-01-04T00:00:00.000Z'),
    tx('t3', '2030-01-03T00:00:00.000Z', { yours: true }),
    tx('t2', '2030-01-02T00:00:00.000Z'),
    tx('t1', '2030-01-01T00:00:00.000Z'),
  ];

  it('finds the items either side of one still listed', () => {
    const around = inboxNeighbours(items, {
      kind: 'TRANSACTION',
      id: 't3',
      createdAt: '2030-01-03T00:00:00.000Z',
    });
    expect(around.previous?.id).toBe('t4');
    expect(around.next?.id).toBe('t2');
  });

  it('finds them for one just decided, which has left the list', () => {
    const decided = {
      kind: 'TRANSACTION' as const,
      id: 't5',
      createdAt: '2030-01-03T12:00:00.000Z',
    };
    const around = inboxNeighbours(items, decided);
    expect(around.previous?.id).toBe('t4');
    expect(around.next?.id).toBe('t3');
    // The member's own is not theirs to decide: the next to decide passes over it.
    expect(around.nextToDecide?.id).toBe('t2');
  });

  it('goes back up for one skipped on the way down, and finds none in an empty inbox', () => {
    const last = { kind: 'TRANSACTION' as const, id: 't0', createdAt: '2029-12-31T00:00:00.000Z' };
    expect(inboxNeighbours(items, last).nextToDecide?.id).toBe('t4');
    expect(inboxNeighbours([], last)).toEqual({
      previous: undefined,
      next: undefined,
      nextToDecide: undefined,
    });
  });
});

describe('what a row says', () => {
  it('keeps a bank account’s masked number apart, so it is never cut or split', () => {
    const item = account('b1', '2030-01-01T00:00:00.000Z');
    expect(describeItemParts(item)).toEqual({
      text: 'US ACH account Acme Payroll · JPMorgan Chase',
      number: '•••• 6789',
    });
    expect(describeItem(item)).toBe('US ACH account Acme Payroll · JPMorgan Chase · •••• 6789');
    expect(describeItem(tx('t', '2030-01-01T00:00:00.000Z'))).toBe(
      'Transfer of 0.5 ETH to Exchange on Ethereum',
    );
  });

  it('says what a contract call does, not "Contract call of 0"', () => {
    const spender = '0x1111111111111111111111111111111111110582';
    const callData = `0x095ea7b3${spender.slice(2).padStart(64, '0')}${'f'.repeat(64)}`;
    const item = tx('c', '2030-01-01T00:00:00.000Z', {
      transaction: {
        id: 'c',
        category: 'CONTRACT_CALL',
        amount: '0',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
        data: { callData, toAddress: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' },
      },
    } as Partial<ApprovalItem>);
    expect(describeItem(item)).toBe('Unlimited USDC approval to 0x1111…0582 on Ethereum');
  });

  it('names the initiator as the console knows them', () => {
    const at = '2030-01-01T00:00:00.000Z';
    expect(
      initiatorName(tx('t', at, { initiator: { type: 'STAFF', id: 's', name: 'Ivan Initiator' } })),
    ).toBe('Ivan Initiator');
    expect(
      initiatorName(tx('t', at, { initiator: { type: 'API_USER', id: 'u', name: 'bot' } })),
    ).toBe('bot (API client)');
    expect(initiatorName(tx('t', at))).toBeUndefined();
  });

  it('says how long an item has waited', () => {
    const at = Date.parse('2030-01-01T00:00:00.000Z');
    const iso = new Date(at).toISOString();
    expect(formatAge(iso, at + 30_000)).toBe('just now');
    expect(formatAge(iso, at + 12 * 60_000)).toBe('12 min ago');
    expect(formatAge(iso, at + 3 * 3_600_000 + 59 * 60_000)).toBe('3 h ago');
    expect(formatAge(iso, at + 50 * 3_600_000)).toBe('2 d ago');
    // A clock a little behind the server's: not "-1 min ago".
    expect(formatAge(iso, at - 5_000)).toBe('just now');
  });
});
