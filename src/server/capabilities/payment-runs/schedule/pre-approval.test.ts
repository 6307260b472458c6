import { describe, expect, it } from 'vitest';
import type { PaymentRowInput } from '#contract/payment-runs.ts';
import { DEFAULT_POLICY, type FrozenRequirement, type Policy } from '#contract/policies.ts';
import { heldBecause, policyRefusal, proposedPreApproval } from './pre-approval.ts';

/** Whether an occurrence is paid on its schedule's pre-approval, and each reason it is held. */

const policy: Policy = { ...DEFAULT_POLICY, schedulePreApproval: { maxOccurrenceUsd: '1000' } };
const rule: FrozenRequirement = {
  policyVersion: 2,
  ruleId: null,
  ruleName: 'Default',
  outcome: {
    action: 'ALLOW',
    approvals: 1,
    approvers: { kinds: [], memberIds: [] },
    apiClientMayApproveOwn: false,
  },
};
const row = (over: Partial<PaymentRowInput> = {}): PaymentRowInput => ({
  kind: 'CRYPTO',
  sourceVaultId: 'vault-1',
  contactId: 'contact-1',
  asset: 'USDC',
  blockChain: 'ETHEREUM',
  amount: '200',
  reference: 'INV-1',
  ...over,
});
const rows = [row(), row({ contactId: 'contact-2', reference: 'INV-2' })];
const approved = {
  ...proposedPreApproval('approval-1', { maxTotalUsd: '500' }, rows),
  status: 'APPROVED' as const,
  approvedAt: '2026-11-30T10:00:00.000Z',
  approvedBy: ['Ada Approver'],
};
const within = { rows, totalUsd: '400', requirement: rule };

describe('a schedule pre-approval', () => {
  it('states the assets and destinations of its rows, each once', () => {
    expect(approved.assets).toEqual(['USDC on ETHEREUM']);
    expect(approved.destinations).toEqual(['contact contact-1', 'contact contact-2']);
  });

  it('pays an occurrence of the approved rows within the cap, under the same rule', () => {
    expect(heldBecause(approved, rule, policy, within)).toBeNull();
    expect(heldBecause(approved, rule, policy, { ...within, totalUsd: '500' })).toBeNull();
  });

  it('holds one over the cap, or of no known USD value', () => {
    expect(heldBecause(approved, rule, policy, { ...within, totalUsd: '500.01' })).toContain(
      'over the approved cap of 500 USD',
    );
    expect(heldBecause(approved, rule, policy, { ...within, totalUsd: null })).toContain(
      'no USD value',
    );
  });

  it('holds one paying a destination or an asset not approved, or rows changed', () => {
    const elsewhere = [row(), row({ contactId: 'contact-3', reference: 'INV-2' })];
    expect(heldBecause(approved, rule, policy, { ...within, rows: elsewhere })).toContain(
      'row 2 pays contact contact-3, not a destination the schedule was approved for',
    );
    const otherAsset = [row(), row({ contactId: 'contact-2', asset: 'USDT', reference: 'INV-2' })];
    expect(heldBecause(approved, rule, policy, { ...within, rows: otherAsset })).toContain(
      'row 2 pays USDT on ETHEREUM, not an asset',
    );
    const moreRows = [...rows, row({ reference: 'INV-3' })];
    expect(heldBecause(approved, rule, policy, { ...within, rows: moreRows })).toContain(
      'not the ones the schedule was approved with',
    );
  });

  it('holds one while the approval waits or was declined, or the policy no longer allows it', () => {
    expect(heldBecause({ ...approved, status: 'PENDING' }, rule, policy, within)).toContain(
      'not yet approved',
    );
    expect(heldBecause({ ...approved, status: 'DECLINED' }, rule, policy, within)).toContain(
      'declined',
    );
    expect(heldBecause(approved, rule, DEFAULT_POLICY, within)).toContain(
      'does not allow pre-approved schedules',
    );
    const lowered = { ...policy, schedulePreApproval: { maxOccurrenceUsd: '499' } };
    expect(heldBecause(approved, rule, lowered, within)).toContain('up to 499 USD');
  });

  it('holds one that falls under another rule, or one needing more', () => {
    const big = { ...rule, ruleId: 'big', ruleName: 'Big runs' };
    expect(heldBecause(approved, rule, policy, { ...within, requirement: big })).toContain(
      'falls under the rule “Big runs”',
    );
    const more = { ...rule, outcome: { ...rule.outcome, approvals: 2 } };
    expect(heldBecause(approved, rule, policy, { ...within, requirement: more })).not.toBeNull();
  });

  it('is refused by a policy that does not allow it, or above its ceiling', () => {
    expect(policyRefusal(DEFAULT_POLICY, '1')).toContain('does not allow');
    expect(policyRefusal(policy, '1000.01')).toContain('up to 1000 USD');
    expect(policyRefusal(policy, '1000')).toBeNull();
  });
});
