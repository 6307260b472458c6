import { describe, expect, it } from 'vitest';
import {
  categoryCovers,
  DEFAULT_POLICY,
  describeRule,
  Policy,
  policyCategoryOf,
  RULE_CATEGORIES,
  type PolicyRule,
} from './policies.ts';
import { TRANSACTION_CATEGORIES } from './enums.ts';

const names: Record<string, string> = { ada: 'Ada Approver', treasury: 'Treasury' };
const nameOf = (id: string) => names[id] ?? id;

describe('a rule in one line', () => {
  it('reads as the Policies page lists it', () => {
    const rule: PolicyRule = {
      id: 'r1',
      name: 'Big transfers',
      match: { categories: ['TRANSFER'], amountUsdAtLeast: '100000', subOrgIds: ['treasury'] },
      outcome: {
        action: 'ALLOW',
        approvals: 2,
        approvers: { kinds: ['admin'], memberIds: ['ada'] },
        apiClientMayApproveOwn: false,
      },
    };
    expect(describeRule(rule, nameOf)).toBe(
      'Transfer ≥ $100,000.00 in Treasury → 2 approvals from Ada Approver or admins',
    );
  });

  it('names a block, destinations, initiators and the 24 h cap', () => {
    const rule: PolicyRule = {
      id: 'r2',
      name: 'Hot wallet',
      match: {
        destinationKinds: ['EXTERNAL_ADDRESS', 'BANK_ACCOUNT'],
        initiatorKinds: ['api_client'],
        outflow24hUsdAbove: '2000000',
      },
      outcome: { action: 'BLOCK' },
    };
    expect(describeRule(rule, nameOf)).toBe(
      "Any category to external address or bank account started by API clients once the vault's 24 h outflow passes $2,000,000.00 → Blocked",
    );
  });

  it('the default fallback needs one approval from anyone who may approve', () => {
    expect(
      describeRule(
        { id: 'd', name: 'Default', match: {}, outcome: DEFAULT_POLICY.fallback },
        nameOf,
      ),
    ).toBe('Any category → 1 approval from anyone who may approve');
  });

  it('says "Any category" for a rule with none, so a threshold alone reads as covering everything', () => {
    const rule: PolicyRule = {
      id: 'r3',
      name: 'Large',
      match: { amountUsdAtLeast: '10000' },
      outcome: {
        action: 'ALLOW',
        approvals: 2,
        approvers: { kinds: [], memberIds: [] },
        apiClientMayApproveOwn: false,
      },
    };
    expect(describeRule(rule, nameOf)).toBe(
      'Any category ≥ $10,000.00 → 2 approvals from anyone who may approve',
    );
  });

  it('names each category as a person reads it on transactions', () => {
    const rule: PolicyRule = {
      id: 'r4',
      name: 'Outflows',
      match: { categories: ['TRANSFER', 'OFF_RAMP'], amountUsdAtLeast: '10000' },
      outcome: { action: 'BLOCK' },
    };
    expect(describeRule(rule, nameOf)).toBe('Transfer or Off-ramp ≥ $10,000.00 → Blocked');
  });
});

describe('the categories a rule names', () => {
  it('cover every category the custody API gives a transaction, and raw signing, each once', () => {
    const covered = RULE_CATEGORIES.flatMap((c) => c.covers);
    expect([...covered].sort()).toEqual([...TRANSACTION_CATEGORIES, 'RAW_SIGNING'].sort());
  });

  it('judge a contract call that signs a raw message as raw signing, and nothing else so', () => {
    expect(policyCategoryOf('CONTRACT_CALL', { messageHex: '0xab' })).toBe('RAW_SIGNING');
    expect(policyCategoryOf('CONTRACT_CALL', { callData: '0xab' })).toBe('CONTRACT_CALL');
    expect(policyCategoryOf('CONTRACT_CALL', undefined)).toBe('CONTRACT_CALL');
    expect(policyCategoryOf('TRANSFER', { messageHex: '0xab' })).toBe('TRANSFER');
    expect(categoryCovers('CONTRACT_CALL', 'RAW_SIGNING')).toBe(false);
    expect(categoryCovers('RAW_SIGNING', 'RAW_SIGNING')).toBe(true);
  });

  it('Transfer covers token transfers, Contract call covers token approvals and revocations', () => {
    const byValue = Object.fromEntries(RULE_CATEGORIES.map((c) => [c.value, c]));
    expect(byValue.TRANSFER?.covers).toEqual(['TRANSFER', 'TOKEN_TRANSFER']);
    expect(byValue.TRANSFER?.description).toBe('Covers transfers and token transfers.');
    expect(byValue.CONTRACT_CALL?.covers).toEqual([
      'CONTRACT_CALL',
      'TOKEN_APPROVAL',
      'REVOKE_TOKEN_ALLOWANCE',
    ]);
  });

  it('a stored rule naming an older, narrower category still reads and names it', () => {
    const stored = {
      rules: [
        {
          id: 'old',
          name: 'Stablecoin payouts',
          match: { categories: ['TOKEN_TRANSFER'] },
          outcome: { action: 'BLOCK' },
        },
      ],
      fallback: DEFAULT_POLICY.fallback,
    };
    const parsed = Policy.parse(stored);
    expect(parsed).toEqual(stored);
    const [rule] = parsed.rules;
    if (!rule) throw new Error('no rule');
    expect(describeRule(rule, nameOf)).toBe(
      'Token transfer (only what the custody API labels so) → Blocked',
    );
  });
});
