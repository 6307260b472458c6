import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { FrozenRequirement, Policy } from '#contract/policies.ts';
import type { Clock } from '../../../clock.ts';
import type { Database } from '../../../db/client.ts';
import type { StaffRole } from '#contract/auth.ts';
import {
  requirementFor,
  tally,
  type PolicyActor,
  type RecordedDecision,
} from '../../policies/evaluate.ts';
import { policyActor } from '../../policies/guard.ts';
import { activePolicy } from '../../policies/policies.store.ts';
import {
  policyRefusal,
  type PreApprovalProposer,
} from '../../payment-runs/schedule/pre-approval.ts';
import { proposeHeld } from '../core/propose.ts';
import { paymentRunScheduleKind } from './schedule-kind.ts';

/**
 * The rule a schedule's pre-approval is decided under: the transactions
 * policy's for a run at the cap (the most one occurrence may pay), on a day
 * with nothing else sent, as the run's own rule is judged at its total; never
 * decided by an API client. An occurrence is paid on it only if it falls
 * under that same rule (pre-approval.ts, `heldBecause`).
 */
export function scheduleRule(
  policy: Policy,
  version: number,
  subOrgId: string | null,
  initiator: PolicyActor,
  maxTotalUsd: string,
): FrozenRequirement {
  const judged = requirementFor(policy, version, {
    subOrgId,
    category: 'TRANSFER',
    initiator,
    amountUsd: maxTotalUsd,
    outflow24hUsd: '0',
  });
  return judged.outcome.action === 'ALLOW'
    ? { ...judged, outcome: { ...judged.outcome, apiClientMayApproveOwn: false } }
    : judged;
}

/** A schedule's cap put up for approval as a held item of its own, if the policy allows it. */
export function schedulePreApprovals(db: Database, clock: Clock): PreApprovalProposer {
  return {
    async prepare(ctx, subOrgId, cap) {
      const initiator = await policyActor(db, ctx);
      const { policy, version } = await activePolicy(db, 'transactions');
      const refused = policyRefusal(policy, cap.maxTotalUsd);
      if (refused)
        throw new ApiError(409, ERROR_CODES.conflict, `preApproval.maxTotalUsd: ${refused}`, [
          { field: 'preApproval.maxTotalUsd', message: refused },
        ]);
      const requirement = scheduleRule(policy, version, subOrgId, initiator, cap.maxTotalUsd);
      if (requirement.outcome.action === 'BLOCK')
        throw new ApiError(
          403,
          ERROR_CODES.forbidden,
          `The rule "${requirement.ruleName}" blocks a run of ${cap.maxTotalUsd} USD: it cannot be pre-approved`,
        );
      return (tx, pre) =>
        proposeHeld(tx, clock, {
          kind: paymentRunScheduleKind,
          entityId: pre.approvalId,
          subOrgId,
          requirement,
          initiator,
        });
    },
  };
}

/** A member who decided a schedule's pre-approval, as they are now. */
export interface DeciderNow {
  name: string;
  role: StaffRole;
  disabled: boolean;
}

/**
 * Why a schedule's pre-approval no longer stands (null: it does), counted
 * again as its occurrence falls due: a member disabled or gone since counts
 * for nothing, and each other member counts in the role they hold now, under
 * the rule it was approved under. A pre-approval is a standing approval of
 * every later occurrence, so it is only as good as the approvers who gave it.
 */
export function preApprovalLapsed(
  requirement: FrozenRequirement,
  initiator: PolicyActor,
  decisions: readonly RecordedDecision[],
  members: ReadonlyMap<string, DeciderNow>,
): string | null {
  const lost: string[] = [];
  const now: RecordedDecision[] = [];
  for (const decision of decisions) {
    const { actor } = decision;
    if (actor.kind !== 'staff') {
      now.push(decision);
      continue;
    }
    const member = members.get(actor.id);
    if (!member || member.disabled) {
      if (decision.decision === 'APPROVE')
        lost.push(member ? `${member.name} is disabled` : 'an approver’s account is gone');
      continue;
    }
    if (member.role !== actor.role && decision.decision === 'APPROVE')
      lost.push(`${member.name} is now ${member.role === 'admin' ? 'an' : 'a'} ${member.role}`);
    now.push({ ...decision, actor: { ...actor, role: member.role } });
  }
  const counted = tally(requirement, initiator, now);
  if (counted.state === 'APPROVED') return null;
  const why = lost.length ? lost.join('; ') : 'its approvals no longer count';
  return `the schedule’s pre-approval no longer stands (${why}): the rule “${requirement.ruleName}” needs ${counted.required} ${counted.required === 1 ? 'approval' : 'approvals'} and ${counted.approvedBy.length} still ${counted.approvedBy.length === 1 ? 'counts' : 'count'}`;
}
