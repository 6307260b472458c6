import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type Policy, type PolicyRule } from '#contract/policies.ts';
import { diffPolicies } from './policy-diff.ts';

const rule = (id: string, approvals = 2): PolicyRule => ({
  id,
  name: `Rule ${id}`,
  match: { categories: ['TRANSFER'] },
  outcome: {
    action: 'ALLOW',
    approvals,
    approvers: { kinds: ['admin'], memberIds: [] },
    apiClientMayApproveOwn: false,
  },
});
const policy = (...rules: PolicyRule[]): Policy => ({ rules, fallback: DEFAULT_POLICY.fallback });

describe('diffPolicies', () => {
  it('says nothing of an unchanged policy, whatever the order of its keys', () => {
    const a = rule('a');
    const reordered = { outcome: a.outcome, match: a.match, name: a.name, id: a.id };
    expect(diffPolicies(policy(a), policy(reordered))).toEqual([]);
  });

  it('names rules added, removed and changed, with their places', () => {
    const changes = diffPolicies(policy(rule('a'), rule('b')), policy(rule('a', 3), rule('c')));
    expect(changes.map((c) => c.type)).toEqual(['removed', 'changed', 'added']);
    expect(changes[0]).toMatchObject({ rule: { id: 'b' }, position: 2 });
    expect(changes[2]).toMatchObject({ rule: { id: 'c' }, position: 2 });
  });

  it('reads one rule moved up as one move, not every rule it passed', () => {
    const changes = diffPolicies(
      policy(rule('a'), rule('b'), rule('c')),
      policy(rule('c'), rule('a'), rule('b')),
    );
    expect(changes).toEqual([{ type: 'moved', rule: rule('c'), from: 3, to: 1 }]);
  });

  it('notices the fallback', () => {
    const stricter = { ...DEFAULT_POLICY.fallback, approvals: 2 };
    expect(diffPolicies(DEFAULT_POLICY, { rules: [], fallback: stricter })).toEqual([
      { type: 'fallback', before: DEFAULT_POLICY.fallback, after: stricter },
    ]);
  });
});
