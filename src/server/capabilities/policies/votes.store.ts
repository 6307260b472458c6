import { and, asc, eq } from 'drizzle-orm';
import type { FrozenRequirement } from '#contract/policies.ts';
import type { Database } from '../../db/client.ts';
import { approvalRequirements, approvalVotes } from '../../db/schema/console.ts';
import { raiseApprovalEvent } from '../live/approval-source.ts';
import { tally, type PolicyActor, type RecordedDecision, type Tally } from './evaluate.ts';

/**
 * The approvals the console collects under a policy: each item's frozen
 * requirement, and each approver's one decision. A decision is recorded and
 * counted under the item's row lock, so two approvers at the same instant are
 * counted one after the other and exactly one of them claims the sending of
 * the outcome to the custody API (ARCHITECTURE.md, "Approval policies").
 */

type RequirementRow = typeof approvalRequirements.$inferSelect;

const STAFF = 'STAFF';
const API_USER = 'API_USER';

/** A claim older than this was left by a request that died mid-send: another may take it. */
const CLAIM_EXPIRES_MS = 60_000;

export function actorColumns(actor: PolicyActor) {
  return {
    type: actor.kind === 'staff' ? STAFF : API_USER,
    id: actor.id,
    role: actor.kind === 'staff' ? (actor.role ?? 'viewer') : null,
  } as const;
}

export function initiatorOf(row: RequirementRow): PolicyActor {
  return row.initiatorType === STAFF
    ? { kind: 'staff', id: row.initiatorId, role: row.initiatorRole ?? 'viewer' }
    : { kind: 'api_client', id: row.initiatorId };
}

export type PolicyEntityType = RequirementRow['entityType'];

/**
 * Keeps what an item needs from its creation on; a second call for it changes
 * nothing. `replace` is for a new change request on the same item (a
 * contact's asset list), once the one before it is decided: its rule and
 * decisions give way to the new request's.
 */
export async function freezeRequirement(
  db: Database,
  item: {
    entityId: string;
    entityType: PolicyEntityType;
    requirement: FrozenRequirement;
    initiator: PolicyActor;
  },
  now: Date,
  options: { replace?: boolean } = {},
): Promise<void> {
  const initiator = actorColumns(item.initiator);
  const row = {
    entityId: item.entityId,
    entityType: item.entityType,
    requirement: item.requirement,
    initiatorType: initiator.type,
    initiatorId: initiator.id,
    initiatorRole: initiator.role,
    createdAt: now,
  };
  if (!options.replace) {
    await db.insert(approvalRequirements).values(row).onConflictDoNothing();
    return;
  }
  await db.transaction(async (tx) => {
    await tx.delete(approvalVotes).where(eq(approvalVotes.entityId, item.entityId));
    await tx
      .insert(approvalRequirements)
      .values(row)
      .onConflictDoUpdate({
        target: approvalRequirements.entityId,
        set: { ...row, settled: null, sendingSince: null, sentAt: null },
      });
  });
}

export async function requirementOf(
  db: Pick<Database, 'select'>,
  entityId: string,
): Promise<RequirementRow | undefined> {
  const [row] = await db
    .select()
    .from(approvalRequirements)
    .where(eq(approvalRequirements.entityId, entityId));
  return row;
}

export async function decisionsOn(
  db: Pick<Database, 'select'>,
  entityId: string,
): Promise<RecordedDecision[]> {
  const rows = await db
    .select()
    .from(approvalVotes)
    .where(eq(approvalVotes.entityId, entityId))
    .orderBy(asc(approvalVotes.seq));
  return rows.map((r) => ({ actor: voteActor(r), decision: r.decision }));
}

/** Who cast a recorded decision. */
export function voteActor(row: typeof approvalVotes.$inferSelect): PolicyActor {
  return row.actorType === STAFF
    ? { kind: 'staff', id: row.actorId, role: row.actorRole ?? 'viewer' }
    : { kind: 'api_client', id: row.actorId };
}

export interface VoteResult {
  tally: Tally;
  /** This request settled the item (or found it settled and unsent): it must send the outcome. */
  claimed: boolean;
  /** The outcome already reached the custody API. */
  sent: boolean;
}

/**
 * Records `actor`'s decision (a second one by the same approver is ignored)
 * and counts, under the item's lock. When the count settles the item and no
 * other request is sending the outcome, this one claims it. A decision
 * recorded raises an `approval.vote` event in the same transaction
 * (capabilities/live/), held to the item's sub-organization (`subOrgId`).
 */
export async function recordVote(
  db: Database,
  entityId: string,
  vote: {
    actor: PolicyActor;
    decision: 'APPROVE' | 'DECLINE';
    reason?: string | undefined;
    subOrgId: string | null;
  },
  now: Date,
): Promise<VoteResult> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(approvalRequirements)
      .where(eq(approvalRequirements.entityId, entityId))
      .for('update');
    if (!row) throw new Error(`No frozen requirement for ${entityId}`);
    if (!row.sentAt) {
      const actor = actorColumns(vote.actor);
      const recorded = await tx
        .insert(approvalVotes)
        .values({
          entityId,
          actorType: actor.type,
          actorId: actor.id,
          actorRole: actor.role,
          decision: vote.decision,
          reason: vote.reason ?? null,
          at: now,
        })
        .onConflictDoNothing()
        .returning({ seq: approvalVotes.seq });
      if (recorded.length > 0)
        await raiseApprovalEvent(
          tx,
          {
            kind: 'VOTE',
            entityType: row.entityType,
            entityId,
            subOrgId: vote.subOrgId,
            status: vote.decision,
          },
          now,
        );
    }
    const counted = tally(row.requirement, initiatorOf(row), await decisionsOn(tx, entityId));
    if (row.sentAt || counted.state === 'PENDING')
      return { tally: counted, claimed: false, sent: Boolean(row.sentAt) };
    const busy =
      row.sendingSince !== null && now.getTime() - row.sendingSince.getTime() < CLAIM_EXPIRES_MS;
    if (busy) return { tally: counted, claimed: false, sent: false };
    await tx
      .update(approvalRequirements)
      .set({ settled: counted.state, sendingSince: now })
      .where(eq(approvalRequirements.entityId, entityId));
    return { tally: counted, claimed: true, sent: false };
  });
}

/** The claimed outcome reached the custody API. */
export async function markSent(db: Database, entityId: string, now: Date): Promise<void> {
  await db
    .update(approvalRequirements)
    .set({ sentAt: now, sendingSince: null })
    .where(eq(approvalRequirements.entityId, entityId));
}

/**
 * The send failed. The claim is released so a retry can send; a refusal by
 * the custody API (4xx) also takes back the vote it was about, since that
 * decision did not stand.
 */
export async function releaseClaim(
  db: Database,
  entityId: string,
  withdrawn: { actor: PolicyActor; subOrgId: string | null; at: Date } | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    if (withdrawn) {
      const actor = actorColumns(withdrawn.actor);
      const gone = await tx
        .delete(approvalVotes)
        .where(
          and(
            eq(approvalVotes.entityId, entityId),
            eq(approvalVotes.actorType, actor.type),
            eq(approvalVotes.actorId, actor.id),
          ),
        )
        .returning({ entityId: approvalVotes.entityId });
      const [item] = await tx
        .select({ entityType: approvalRequirements.entityType })
        .from(approvalRequirements)
        .where(eq(approvalRequirements.entityId, entityId));
      if (gone.length > 0 && item)
        await raiseApprovalEvent(
          tx,
          {
            kind: 'VOTE',
            entityType: item.entityType,
            entityId,
            subOrgId: withdrawn.subOrgId,
            status: 'WITHDRAWN',
          },
          withdrawn.at,
        );
    }
    await tx
      .update(approvalRequirements)
      .set({ sendingSince: null, settled: null })
      .where(eq(approvalRequirements.entityId, entityId));
  });
}
