import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import {
  ApprovalCardIntent,
  canonicalJson,
  intentDigest,
  onlyFeeMoved,
  shortDigest,
  type ApprovalCardIntent as Intent,
} from './approval-card.ts';

const INTENT: Intent = {
  kind: 'TRANSACTION',
  category: 'TRANSFER',
  source: { id: 'vault-1', name: 'Treasury' },
  destination: {
    type: 'CONTACT',
    id: 'contact-1',
    name: 'Acme payroll',
    address: '0x1111111111111111111111111111111111111111',
    blockChain: 'ETHEREUM',
    rail: null,
    last4: null,
    ours: false,
    approvedContact: true,
    approvedContactSince: '2026-01-02T03:04:05.000Z',
  },
  asset: 'ETH',
  blockChain: 'ETHEREUM',
  amount: '0.50',
  assets: null,
  feeCeiling: {
    tier: 'MEDIUM',
    maxFee: '0.000420',
    asset: 'ETH',
    blockChain: 'ETHEREUM',
  },
  call: null,
  quote: null,
  rule: { name: 'Large transfers', summary: '2 approvals from admins', policyVersion: 3 },
};

/** The same value with every object's keys in reverse order. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, reversedKeys(v)]),
    );
  return value;
}

describe('canonicalJson', () => {
  it('sorts keys at every depth, leaves out undefined and writes no spaces', () => {
    expect(canonicalJson({ b: 1, a: { d: undefined, c: [2, { z: null, y: 'x' }] } })).toBe(
      '{"a":{"c":[2,{"y":"x","z":null}]},"b":1}',
    );
  });

  it('keeps decimal strings exactly as written: 0.50 is not 0.5', () => {
    expect(canonicalJson({ amount: '0.50' })).toBe('{"amount":"0.50"}');
    expect(canonicalJson({ amount: '0.50' })).not.toBe(canonicalJson({ amount: '0.5' }));
  });

  it('keeps non-ASCII text as it is', () => {
    expect(canonicalJson({ name: 'Café' })).toBe('{"name":"Café"}');
  });

  it('refuses what JSON cannot carry rather than writing something else', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(TypeError);
    expect(() => canonicalJson({ f: () => 1 })).toThrow(TypeError);
  });
});

describe('intentDigest', () => {
  it('is the SHA-256 hex of the canonical JSON', () => {
    expect(intentDigest(INTENT)).toBe(bytesToHex(sha256(utf8ToBytes(canonicalJson(INTENT)))));
    expect(intentDigest(INTENT)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is the same whatever order the keys were built in', () => {
    const reordered = reversedKeys(INTENT) as Intent;
    expect(JSON.stringify(reordered)).not.toBe(JSON.stringify(INTENT));
    expect(intentDigest(reordered)).toBe(intentDigest(INTENT));
  });

  // Each change an approver must not be able to miss: any one of them gives another digest.
  const changes: Array<[string, (i: Intent) => Intent]> = [
    ['the kind', (i) => ({ ...i, kind: 'CONTACT' })],
    ['the category', (i) => ({ ...i, category: 'TOKEN_TRANSFER' })],
    ['the source vault', (i) => ({ ...i, source: { id: 'vault-2', name: 'Treasury' } })],
    ['the source’s name', (i) => ({ ...i, source: { id: 'vault-1', name: 'Ops' } })],
    [
      'the destination address',
      (i) => ({
        ...i,
        destination: { ...i.destination!, address: '0x1111111111111111111111111111111111111112' },
      }),
    ],
    [
      'whether it is an approved contact',
      (i) => ({ ...i, destination: { ...i.destination!, approvedContact: false } }),
    ],
    ['the bank’s last 4', (i) => ({ ...i, destination: { ...i.destination!, last4: '1234' } })],
    ['the asset', (i) => ({ ...i, asset: 'USDC' })],
    ['the chain', (i) => ({ ...i, blockChain: 'POLYGON' })],
    ['the amount', (i) => ({ ...i, amount: '0.51' })],
    ['the amount’s writing', (i) => ({ ...i, amount: '0.5' })],
    ['the assets', (i) => ({ ...i, assets: ['ETH'] })],
    ['the fee ceiling', (i) => ({ ...i, feeCeiling: { ...i.feeCeiling!, maxFee: '0.000421' } })],
    ['the fee tier', (i) => ({ ...i, feeCeiling: { ...i.feeCeiling!, tier: 'HIGH' } })],
    [
      'the call',
      (i) => ({
        ...i,
        call: {
          description: 'Unlimited USDC approval to 0x1111…1111',
          contract: '0xa0b8',
          function: 'approve(address,uint256)',
          spender: '0x1111111111111111111111111111111111111111',
          amount: null,
          unlimited: true,
        },
      }),
    ],
    [
      'the quote',
      (i) => ({
        ...i,
        quote: {
          quoteId: 'q-1',
          provider: 'Ramp Co',
          rate: '0.99',
          arrivesAmount: '99',
          arrivesAsset: 'USD',
          expiresAt: '2026-01-02T03:14:05.000Z',
        },
      }),
    ],
    ['the rule', (i) => ({ ...i, rule: { ...i.rule!, name: 'Everything else' } })],
    ['the rule’s version', (i) => ({ ...i, rule: { ...i.rule!, policyVersion: 4 } })],
  ];
  it.each(changes)('changes when %s changes', (_what, change) => {
    const changed = change(INTENT);
    expect(ApprovalCardIntent.safeParse(changed).success).toBe(true);
    expect(intentDigest(changed)).not.toBe(intentDigest(INTENT));
  });
});

describe('shortDigest', () => {
  it('keeps the first 8 and last 4 hex digits', () => {
    expect(shortDigest('0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef')).toBe(
      '01234567…cdef',
    );
  });
});

describe('onlyFeeMoved', () => {
  const fee = (maxFee: string, more: Partial<NonNullable<Intent['feeCeiling']>> = {}): Intent => ({
    ...INTENT,
    feeCeiling: { tier: 'MEDIUM', maxFee, asset: 'ETH', blockChain: 'ETHEREUM', ...more },
  });

  it('holds a fee that fell, or rose by at most a quarter of the fee shown', () => {
    expect(onlyFeeMoved(INTENT, fee('0.000100'))).toBe(true);
    expect(onlyFeeMoved(INTENT, fee('0.000525'))).toBe(true);
  });

  it('does not hold a fee beyond the ceiling, another tier or asset, or any other change', () => {
    expect(onlyFeeMoved(INTENT, fee('0.000526'))).toBe(false);
    expect(onlyFeeMoved(INTENT, fee('0.000420', { tier: 'HIGH' }))).toBe(false);
    expect(onlyFeeMoved(INTENT, fee('0.000420', { asset: 'USDC' }))).toBe(false);
    expect(onlyFeeMoved(INTENT, { ...fee('0.000400'), amount: '2' })).toBe(false);
    expect(onlyFeeMoved(INTENT, { ...INTENT, feeCeiling: null })).toBe(false);
  });
});
