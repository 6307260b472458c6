import { asc, eq, inArray } from 'drizzle-orm';
import {
  MAX_ELIGIBLE_NAMED,
  type ApprovalProgress,
  type ProgressDecision,
} from '#contract/approval-progress.ts';
import { describeApprovers, describeOutcome, type FrozenRequirement } from '#contract/policies.ts';
import type { Database } from '../../db/client.ts';
import { linkedToMember } from '../../console/linked-accounts.ts';
import { approvalRequirements, approvalVotes, staff } from '../../db/schema/console.ts';
import { notCounted, tally, type PolicyActor } from './evaluate.ts';
import { initiatorOf, voteActor } from './votes.store.ts';

/**
 * Where items stand under the rules frozen on them (contract/approval-progress.ts):
 * the approvals collected, named and timed, and the members who could still
 * add one. The caller has checked that the member may see each item and
 * gives its sub-organization (a member restricted elsewhere cannot decide it,
 * so is not listed), and whether the console holds the item itself (a held
 * kind: a payment run, a staff change, a policy publish), which only members
 * decide, in the console, so no API client is among its approvers whatever
 * its rule's kinds say. Read in three queries however many items, two more
 * when `memberId` names the member asking: `linkedToYou` is theirs.
 */

type RequirementRow = typeof approvalRequirements.$inferSelect;

const key = (actor: PolicyActor) => `${actor.kind}:${actor.id}`;

/**
 * A requirement's outcome in words ("2 approvals from admins"), its named
 * members by name: the one-line summary the review step and the approval card show.
 */
export async function summaryOf(
  db: Pick<Database, 'select'>,
  requirement: FrozenRequirement,
): Promise<string> {
  const { outcome } = requirement;
  const ids = outcome.action === 'ALLOW' ? outcome.approvers.memberIds : [];
  const rows = ids.length
    ? await db.select({ id: staff.id, name: staff.name }).from(staff).where(inArray(staff.id, ids))
    : [];
  const names = new Map(rows.map((r) => [r.id, r.name]));
  return describeOutcome(outcome, (id) => names.get(id) ?? id);
}

export async function requirementsOf(
  db: Pick<Database, 'select'>,
  entityIds: readonly string[],
): Promise<RequirementRow[]> {
  if (entityIds.length === 0) return [];
  return db
    .select()
    .from(approvalRequirements)
    .where(inArray(approvalRequirements.entityId, [...entityIds]));
}

export async function approvalProgress(
  db: Pick<Database, 'select'>,
  items: ReadonlyArray<{ row: RequirementRow; subOrgId: string | null | undefined; held: boolean }>,
  memberId: string | null = null,
): Promise<ApprovalProgress[]> {
  if (items.length === 0) return [];
  const ids = items.map((i) => i.row.entityId);
  const [votes, members, linked] = await Promise.all([
    db
      .select()
      .from(approvalVotes)
      .where(inArray(approvalVotes.entityId, ids))
      .orderBy(asc(approvalVotes.seq)),
    db
      .select({
        id: staff.id,
        name: staff.name,
        role: staff.role,
        subOrgIds: staff.subOrgIds,
        createdBy: staff.createdBy,
      })
      .from(staff)
      .where(eq(staff.disabled, false))
      .orderBy(asc(staff.name), asc(staff.id)),
    memberId
      ? linkedToMember(
          db,
          memberId,
          items.map(({ row }) => {
            const initiator = initiatorOf(row);
            return {
              entityId: row.entityId,
              entityType: row.entityType,
              creatorId: initiator.kind === 'staff' ? initiator.id : null,
            };
          }),
        )
      : new Map(),
  ]);
  const names = new Map(members.map((m) => [m.id, m.name]));
  const nameOf = (id: string) => names.get(id) ?? id;

  return items.map(({ row, subOrgId, held }) => {
    const mine = votes.filter((v) => v.entityId === row.entityId);
    const decisions = mine.map((v) => ({ actor: voteActor(v), decision: v.decision }));
    const when = new Map(mine.map((v) => [key(voteActor(v)), v.at.toISOString()]));
    const initiator = initiatorOf(row);
    const { requirement } = row;
    const counted = tally(requirement, initiator, decisions);
    const decided = (actor: PolicyActor): ProgressDecision => ({
      type: actor.kind === 'staff' ? 'STAFF' : 'API_USER',
      id: actor.id,
      name: actor.kind === 'staff' ? (names.get(actor.id) ?? null) : null,
      at: when.get(key(actor)) ?? row.createdAt.toISOString(),
    });
    const base = {
      entityId: row.entityId,
      entityType: row.entityType,
      policyVersion: requirement.policyVersion,
      ruleName: requirement.ruleName,
      approvals: counted.approvedBy.map(decided),
      declinedBy: counted.declinedBy ? decided(counted.declinedBy) : null,
      state: counted.state,
      linkedToYou: linked.get(row.entityId) ?? null,
    };
    const { outcome } = requirement;
    if (outcome.action === 'BLOCK')
      return {
        ...base,
        blocked: true,
        required: 0,
        eligible: 'no one',
        stillEligible: [],
        moreEligible: 0,
        apiClientsMayApprove: false,
      };
    const done = new Set(mine.map((v) => key(voteActor(v))));
    const still = members.filter((m) => {
      const actor: PolicyActor = {
        kind: 'staff',
        id: m.id,
        role: m.role,
        subOrgIds: m.subOrgIds,
        createdBy: m.createdBy,
      };
      const seesIt = !m.subOrgIds || (!!subOrgId && m.subOrgIds.includes(subOrgId));
      return seesIt && !done.has(key(actor)) && !notCounted(requirement, initiator, actor);
    });
    const { kinds, memberIds } = outcome.approvers;
    return {
      ...base,
      blocked: false,
      required: outcome.approvals,
      eligible: describeApprovers(outcome.approvers, nameOf),
      stillEligible: still
        .slice(0, MAX_ELIGIBLE_NAMED)
        .map(({ id, name, role }) => ({ id, name, role })),
      moreEligible: Math.max(0, still.length - MAX_ELIGIBLE_NAMED),
      apiClientsMayApprove:
        !held && ((kinds.length === 0 && memberIds.length === 0) || kinds.includes('api_client')),
    };
  });
}
