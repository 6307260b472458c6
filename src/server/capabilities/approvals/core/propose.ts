import type { FrozenRequirement } from '#contract/policies.ts';
import type { Clock } from '../../../clock.ts';
import type { Database } from '../../../db/client.ts';
import { raiseApprovalEvent } from '../../live/approval-source.ts';
import type { PolicyActor } from '../../policies/evaluate.ts';
import { freezeRequirement } from '../../policies/votes.store.ts';
import type { ApprovableKind } from './kind.ts';

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
