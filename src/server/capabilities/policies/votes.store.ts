import { and, asc, eq, gte, isNull } from 'drizzle-orm';
import type { ApprovalCardIntent, CardVoidedVote } from '#contract/approval-card.ts';
import type { FrozenRequirement } from '#contract/policies.ts';
import type { Database } from '../../db/client.ts';
import { approvalRequirements, approvalVotes } from '../../db/schema/console.ts';
import { voidChangedVotes } from '../approvals/signing/signatures.store.ts';
import { raiseApprovalEvent } from '../live/approval-source.ts';
import {
  mayResendSettled,
  tally,
  type PolicyActor,
  type RecordedDecision,
  type Tally,
} from './evaluate.ts';

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

/**
 * An item still waiting judged again because what it would pay changed (a
 * payment run's row edited while it waits): its rule gives way to the one
 * judged now. Its votes stay recorded, and each stops counting as its card no
 * longer holds (`voidChangedVotes`). False when it is no longer waiting.
 */
export async function judgeAgain(
  db: Pick<Database, 'update'>,
  entityId: string,
  requirement: FrozenRequirement,
): Promise<boolean> {
  const changed = await db
    .update(approvalRequirements)
    .set({ requirement })
    .where(and(eq(approvalRequirements.entityId, entityId), isNull(approvalRequirements.settled)))
    .returning({ entityId: approvalRequirements.entityId });
  return changed.length > 0;
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

/** Whether `staffId`'s decision on the item was recorded at `since` or later (and still stands). */
export async function votedSince(
  db: Pick<Database, 'select'>,
  entityId: string,
  staffId: string,
  since: Date,
): Promise<boolean> {
  const rows = await db
    .select({ at: approvalVotes.at })
    .from(approvalVotes)
    .where(
      and(
        eq(approvalVotes.entityId, entityId),
        eq(approvalVotes.actorType, STAFF),
        eq(approvalVotes.actorId, staffId),
        gte(approvalVotes.at, since),
      ),
    );
  return rows.length > 0;
}

/** Who cast a recorded decision. */
export function voteActor(row: typeof approvalVotes.$inferSelect): PolicyActor {
  return row.actorType === STAFF
    ? { kind: 'staff', id: row.actorId, role: row.actorRole ?? 'viewer' }
    : { kind: 'api_client', id: row.actorId };
}

export interface VoteResult {
  tally: Tally;
  /**
   * This request holds the claim to send the settled outcome, taken at this
   * instant (the claim's token for `releaseClaim`); null when it does not.
   */
  claimedAt: Date | null;
  /** The outcome already reached the custody API. */
  sent: boolean;
  /** This request's decision was recorded (a first decision on an item not yet settled). */
  recorded: boolean;
  /** `onlyIfSettles` was asked and this decision would not have settled the item: nothing recorded. */
  wouldNotSettle?: true;
  /**
   * The actor had decided this item before, while it still waits: what and
   * when. Nothing of this request's is recorded; a member's decision counts once.
   */
  earlier?: { decision: 'APPROVE' | 'DECLINE'; at: Date };
  /** Members' approvals that stopped counting before this one was counted: the card changed. */
  voided?: CardVoidedVote[];
}

const claimIsLive = (row: RequirementRow, now: Date) =>
  row.sendingSince !== null && now.getTime() - row.sendingSince.getTime() < CLAIM_EXPIRES_MS;

/**
 * Voids, under the item's lock, each approval whose card no longer holds
 * against `current`, as the next vote would (`recordVote`), while its rule is
 * unsettled: for a read of the item, so its page, the inbox and its
 * signatures say at once that the vote no longer counts. Answers what was voided
 * (nothing when another request voided it first).
 */
export async function voidChangedVotesNow(
  db: Database,
  item: { entityId: string; entityType: string; subOrgId: string | null },
  current: ApprovalCardIntent,
  now: Date,
): Promise<CardVoidedVote[]> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ settled: approvalRequirements.settled })
      .from(approvalRequirements)
      .where(eq(approvalRequirements.entityId, item.entityId))
      .for('update');
    if (!row || row.settled !== null) return [];
    return voidChangedVotes(tx, item, current, now);
  });
}

/**
 * Records `actor`'s decision (a second one by the same approver is ignored)
 * and counts, under the item's lock. When the count settles the item, this
 * request claims the sending of the outcome. A decision recorded raises an
 * `approval.vote` event in the same transaction (capabilities/live/), held to
 * the item's sub-organization (`subOrgId`).
 *
 * Once an item is settled nothing more is recorded: a decision arriving after
 * the one that settled it counts for nothing and is not kept, so the record
 * never shows what did not decide. A settled item whose send failed (no live
 * claim, not sent) is claimed again only by a member of the quorum repeating
 * the decision they recorded: whoever sends, sends the settled outcome, as
 * its own decision.
 *
 * `onlyIfSettles` (an API client, whose signature only the custody API
 * checks): the decision is recorded only if it settles the item.
 *
 * `current` (the item's approval card's intent, computed just before): each
 * member's approval stored with a card it no longer matches stops counting
 * first (signing/signatures.store.ts `voidChangedVotes`), so a quorum is only
 * ever made of votes on what will be sent.
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
  options: { onlyIfSettles?: boolean; current?: ApprovalCardIntent } = {},
): Promise<VoteResult> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(approvalRequirements)
      .where(eq(approvalRequirements.entityId, entityId))
      .for('update');
    if (!row) throw new Error(`No frozen requirement for ${entityId}`);
    const initiator = initiatorOf(row);
    const voided =
      row.settled === null && options.current
        ? await voidChangedVotes(
            tx,
            { entityId, entityType: row.entityType, subOrgId: vote.subOrgId },
            options.current,
            now,
          )
        : [];
    const decisions = await decisionsOn(tx, entityId);
    const counted = tally(row.requirement, initiator, decisions);
    const unclaimed = { tally: counted, claimedAt: null, recorded: false } as const;

    if (row.settled !== null) {
      if (row.sentAt) return { ...unclaimed, sent: true };
      if (claimIsLive(row, now)) return { ...unclaimed, sent: false };
      if (!mayResendSettled(counted, decisions, vote)) return { ...unclaimed, sent: false };
      await tx
        .update(approvalRequirements)
        .set({ sendingSince: now })
        .where(eq(approvalRequirements.entityId, entityId));
      return { tally: counted, claimedAt: now, sent: false, recorded: false };
    }

    if (options.onlyIfSettles) {
      const after = tally(row.requirement, initiator, [
        ...decisions,
        { actor: vote.actor, decision: vote.decision },
      ]);
      if (after.state === 'PENDING')
        return {
          ...unclaimed,
          sent: false,
          wouldNotSettle: true,
          ...(voided.length ? { voided } : {}),
        };
    }
    const actor = actorColumns(vote.actor);
    const inserted = await tx
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
    const recorded = inserted.length > 0;
    if (!recorded && counted.state === 'PENDING') {
      // Their earlier decision stands, as it was counted: told back, never replaced.
      const [earlier] = await tx
        .select({ decision: approvalVotes.decision, at: approvalVotes.at })
        .from(approvalVotes)
        .where(
          and(
            eq(approvalVotes.entityId, entityId),
            eq(approvalVotes.actorType, actor.type),
            eq(approvalVotes.actorId, actor.id),
          ),
        );
      return {
        tally: counted,
        claimedAt: null,
        sent: false,
        recorded,
        ...(earlier ? { earlier } : {}),
      };
    }
    if (recorded)
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
    const after = recorded
      ? tally(row.requirement, initiator, await decisionsOn(tx, entityId))
      : counted;
    if (after.state === 'PENDING')
      return {
        tally: after,
        claimedAt: null,
        sent: false,
        recorded,
        ...(voided.length ? { voided } : {}),
      };
    await tx
      .update(approvalRequirements)
      .set({ settled: after.state, sendingSince: now })
      .where(eq(approvalRequirements.entityId, entityId));
    return { tally: after, claimedAt: now, sent: false, recorded };
  });
}

/**
 * An item of a held kind approved by an approval given before it existed (a
 * pre-approved schedule's occurrence): its rule, frozen with it, is settled
 * at once, with no vote of its own, so it waits in no inbox.
 */
export async function settleApprovedBefore(
  db: Database,
  entityId: string,
  now: Date,
): Promise<void> {
  await db
    .update(approvalRequirements)
    .set({ settled: 'APPROVED', sentAt: now, sendingSince: null })
    .where(eq(approvalRequirements.entityId, entityId));
}

/** The claimed outcome reached the custody API (or the custody API holds the item decided). */
export async function markSent(db: Database, entityId: string, now: Date): Promise<void> {
  await db
    .update(approvalRequirements)
    .set({ sentAt: now, sendingSince: null })
    .where(eq(approvalRequirements.entityId, entityId));
}

/**
 * The send claimed at `claimedAt` failed. Only that claim is released: one
 * that expired and was taken by another request, or an item marked sent,
 * is left alone. The item stays settled, for a member of its quorum to send
 * again, unless `withdrawn`: the custody API refused this decision and still
 * holds the item waiting, so the decision did not stand; it is taken back
 * and the item waits again, as at the custody API.
 */
export async function releaseClaim(
  db: Database,
  entityId: string,
  claimedAt: Date,
  withdrawn: { actor: PolicyActor; subOrgId: string | null; at: Date } | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(approvalRequirements)
      .where(eq(approvalRequirements.entityId, entityId))
      .for('update');
    if (!row || row.sentAt || row.sendingSince?.getTime() !== claimedAt.getTime()) return;
    let settled = row.settled;
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
      if (gone.length > 0)
        await raiseApprovalEvent(
          tx,
          {
            kind: 'VOTE',
            entityType: row.entityType,
            entityId,
            subOrgId: withdrawn.subOrgId,
            status: 'WITHDRAWN',
          },
          withdrawn.at,
        );
      const left = tally(row.requirement, initiatorOf(row), await decisionsOn(tx, entityId));
      settled = left.state === 'PENDING' ? null : left.state;
    }
    await tx
      .update(approvalRequirements)
      .set({ sendingSince: null, settled })
      .where(eq(approvalRequirements.entityId, entityId));
  });
}
