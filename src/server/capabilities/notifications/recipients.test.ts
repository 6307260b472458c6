import { describe, expect, it } from 'vitest';
import { DEFAULT_POLICY, type FrozenRequirement } from '#contract/policies.ts';
import { eligibleDeciders, type Member } from './recipients.ts';

const member = (
  id: string,
  role: Member['role'],
  subOrgIds: string[] | null = null,
  createdBy: string | null = null,
): Member => ({
  id,
  email: `${id}@x.test`,
  name: id,
  role,
  subOrgIds,
  createdBy,
});

const rule = (
  outcome: FrozenRequirement['outcome'],
  extra: Partial<FrozenRequirement> = {},
): FrozenRequirement => ({
  policyVersion: 1,
  ruleId: null,
  ruleName: 'Rule',
  outcome,
  ...extra,
});

describe('who is asked to decide', () => {
  const members = [
    member('initiator', 'approver', ['s1']),
    member('a1', 'approver', ['s1']),
    member('a2', 'approver', ['s2']),
    member('boss', 'admin'),
    member('viewer', 'viewer'),
    member('maker', 'initiator', ['s1']),
  ];
  const initiator = { kind: 'staff' as const, id: 'initiator', role: 'approver' as const };
  const ids = (list: Member[]) => list.map((m) => m.id).sort();

  it('by the default rule: approvers and admins who see the item, never its initiator', () => {
    expect(ids(eligibleDeciders(rule(DEFAULT_POLICY.fallback), initiator, members, 's1'))).toEqual([
      'a1',
      'boss',
    ]);
    // The organization's own item: only members of every sub-organization see it.
    expect(ids(eligibleDeciders(rule(DEFAULT_POLICY.fallback), initiator, members, null))).toEqual([
      'boss',
    ]);
  });

  it('by a rule naming admins or members, leaving out who decided and who is excluded', () => {
    const admins = rule({
      action: 'ALLOW',
      approvals: 1,
      approvers: { kinds: ['admin'], memberIds: [] },
      apiClientMayApproveOwn: false,
    });
    expect(ids(eligibleDeciders(admins, initiator, members, 's1'))).toEqual(['boss']);
    const named = rule({
      action: 'ALLOW',
      approvals: 1,
      approvers: { kinds: [], memberIds: ['a1', 'maker'] },
      apiClientMayApproveOwn: false,
    });
    expect(ids(eligibleDeciders(named, initiator, members, 's1'))).toEqual(['a1', 'maker']);
    expect(ids(eligibleDeciders(named, initiator, members, 's1', new Set(['a1'])))).toEqual([
      'maker',
    ]);
    const excluded = rule(DEFAULT_POLICY.fallback, { excluded: ['boss'] });
    expect(ids(eligibleDeciders(excluded, initiator, members, 's1'))).toEqual(['a1']);
  });

  it('asks no one of a blocked item', () => {
    expect(
      eligibleDeciders(
        rule({ action: 'BLOCK' } as FrozenRequirement['outcome']),
        initiator,
        members,
        's1',
      ),
    ).toEqual([]);
  });
});
