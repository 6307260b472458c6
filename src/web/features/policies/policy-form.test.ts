import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type Policy } from '#contract/policies.ts';
import { newRule, toForm, toPolicy } from './policy-form.ts';

const policy: Policy = {
  rules: [
    {
      id: 'big',
      name: 'Big stablecoin transfers',
      match: {
        categories: ['TRANSFER'],
        assets: ['USDC', 'USDT'],
        amountUsdAtLeast: '10000',
        destinationKinds: ['EXTERNAL_ADDRESS'],
      },
      outcome: {
        action: 'ALLOW',
        approvals: 2,
        approvers: { kinds: ['admin'], memberIds: ['staff_ada'] },
        apiClientMayApproveOwn: false,
      },
    },
    {
      id: 'no-ramps',
      name: 'No off-ramps',
      match: { categories: ['OFF_RAMP'] },
      outcome: { action: 'BLOCK' },
    },
  ],
  fallback: DEFAULT_POLICY.fallback,
};

describe('the editor’s form of a policy', () => {
  it('gives back the policy it was made from', () => {
    expect(toPolicy(toForm(policy))).toEqual(policy);
  });

  it('keeps whether schedules may be pre-approved, and its ceiling as people write it', () => {
    const allowing = { ...policy, schedulePreApproval: { maxOccurrenceUsd: '25000' } };
    expect(toPolicy(toForm(allowing))).toEqual(allowing);
    const form = toForm(policy);
    expect(form.schedulePreApproval).toEqual({ allowed: false, maxOccurrenceUsd: '' });
    expect(
      toPolicy({ ...form, schedulePreApproval: { allowed: true, maxOccurrenceUsd: '$25,000' } })
        .schedulePreApproval,
    ).toEqual({ maxOccurrenceUsd: '25000' });
  });

  it('leaves empty conditions out and reads amounts as people write them', () => {
    const rule = newRule('r1');
    rule.match.amountUsdAtLeast = '$10,000';
    rule.match.chains = ' ETH , , TRX ';
    expect(
      toPolicy({ rules: [rule], fallback: toForm(DEFAULT_POLICY).fallback }).rules[0]?.match,
    ).toEqual({
      chains: ['ETH', 'TRX'],
      amountUsdAtLeast: '10000',
    });
  });

  it('starts a new rule on any category, so a threshold alone covers every kind of transaction', () => {
    const rule = newRule('r1');
    expect(rule.match.categories).toEqual([]);
    rule.name = 'Large';
    rule.match.amountUsdAtLeast = '10000';
    rule.outcome.approvals = '2';
    const [made] = toPolicy({ rules: [rule], fallback: toForm(DEFAULT_POLICY).fallback }).rules;
    expect(made?.match).toEqual({ amountUsdAtLeast: '10000' });
  });
});
