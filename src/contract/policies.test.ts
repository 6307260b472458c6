import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, describeRule, type PolicyRule } from './policies.ts';

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
      "Any transaction to external address or bank account started by API clients once the vault's 24 h outflow passes $2,000,000.00 → Blocked",
    );
  });

  it('the default fallback needs one approval from anyone who may approve', () => {
    expect(
      describeRule(
        { id: 'd', name: 'Default', match: {}, outcome: DEFAULT_POLICY.fallback },
        nameOf,
      ),
    ).toBe('Any transaction → 1 approval from anyone who may approve');
  });
});
