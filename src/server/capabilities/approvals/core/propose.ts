import type { FrozenRequirement } from '#contract/policies.ts';
import type { Clock } from '../../../clock.ts';
import type { Database } from '../../../db/client.ts';
import { raiseApprovalEvent } from '../../live/approval-source.ts';
import type { PolicyActor } from '../../policies/evaluate.ts';
import { freezeRequirement } from '../../policies/votes.store.ts';
import type { ApprovableKind } from './kind.ts';

/**
 * The rule of a change to the console itself (a staff change, a policy
 * publish, a month's close, a single sign-on change): one approval by an
 * admin, never one of `excluded` nor an account linked to one of
 * `unlinkedFrom`, and only by an admin of every sub-organization in
 * `subOrgIds` (null: of all of them). No API client decides one.
 */
export function oneAdminRule(
  ruleName: string,
  who: Pick<FrozenRequirement, 'excluded' | 'unlinkedFrom'> & { subOrgIds: string[] | null },
): FrozenRequirement {
  return {
    policyVersion: 0,
    ruleId: null,
    ruleName,
    outcome: {
      action: 'ALLOW',
      approvals: 1,
      approvers: { kinds: ['admin'], memberIds: [] },
      apiClientMayApproveOwn: false,
    },
    excluded: who.excluded,
    unlinkedFrom: who.unlinkedFrom,
    deciderAdministers: { subOrgIds: who.subOrgIds },
  };
}

/**
 * Freezes the rule an item of a held kind is decided under, as it is proposed
 * (the kind's rule: who may decide and how many must), and tells the
 * browsers it waits. Call it in the kind's own write, before answering.
 */
export async function proposeHeld(
  db: Database,
  clock: Clock,
  item: {
    kind: ApprovableKind;
    entityId: string;
    subOrgId: string | null;
    requirement: FrozenRequirement;
    initiator: PolicyActor;
  },
): Promise<void> {
  const now = clock.now();
  await freezeRequirement(
    db,
    {
      entityId: item.entityId,
      entityType: item.kind.kind,
      requirement: item.requirement,
      initiator: item.initiator,
    },
    now,
  );
  await raiseApprovalEvent(
    db,
    {
      kind: 'PROPOSED',
      entityType: item.kind.kind,
      entityId: item.entityId,
      subOrgId: item.subOrgId,
      status: 'PENDING',
    },
    now,
  );
}
