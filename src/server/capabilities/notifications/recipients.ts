import type { StaffRole } from '#contract/auth.ts';
import type { FrozenRequirement } from '#contract/policies.ts';
import { notCounted, type PolicyActor } from '../policies/evaluate.ts';

/** A member as the notifier reads them. */
export interface Member {
  id: string;
  email: string;
  name: string;
  role: StaffRole;
  /** Null: every sub-organization. */
  subOrgIds: string[] | null;
  createdBy: string | null;
}

/** The member sees items of `subOrgId` (null: the organization's own, seen only by the unrestricted). */
export function sees(member: Pick<Member, 'subOrgIds'>, subOrgId: string | null): boolean {
  return !member.subOrgIds || (subOrgId !== null && member.subOrgIds.includes(subOrgId));
}

/**
 * Who is asked to decide an item: every enabled member whose decision would
 * count under the rule frozen on it (the one verdict the decision itself is
 * judged by, policies/evaluate.ts `notCounted`: never the initiator, nor a
 * member the rule excludes or links to them, nor one outside the scope it
 * asks for), who can see it, and who has not decided already. A blocked
 * item asks no one.
 */
export function eligibleDeciders(
  requirement: FrozenRequirement,
  initiator: PolicyActor,
  members: readonly Member[],
  subOrgId: string | null,
  decided: ReadonlySet<string> = new Set(),
): Member[] {
  return members.filter((member) => {
    if (decided.has(member.id) || !sees(member, subOrgId)) return false;
    const actor: PolicyActor = {
      kind: 'staff',
      id: member.id,
      role: member.role,
      subOrgIds: member.subOrgIds,
      createdBy: member.createdBy,
    };
    const why = notCounted(requirement, initiator, actor);
    // A linked account's decision counts (flagged for review): they are asked too.
    return why === null || why.why === 'LINKED';
  });
}
