import * as z from 'zod/mini';
import { IsoTimestamp } from './common.ts';

/**
 * Where an item stands under the approval rule frozen on it when it was
 * created (contract/policies.ts, FrozenRequirement): the approvals the
 * console has collected, and who may still add one. Read by the transaction,
 * bank-account and contact pages and carried by each approvals-inbox item
 * (zod/mini: the inbox's first load reads it).
 */

/** Someone who decided, and when: a member by name, an API client by its id. */
export const ProgressDecision = z.strictObject({
  type: z.enum(['STAFF', 'API_USER']),
  id: z.string(),
  name: z.nullable(z.string()),
  at: IsoTimestamp,
});
export type ProgressDecision = z.infer<typeof ProgressDecision>;

/** A member who counts towards the rule and has not decided yet. */
export const EligibleMember = z.strictObject({
  id: z.string(),
  name: z.string(),
  role: z.string(),
});
export type EligibleMember = z.infer<typeof EligibleMember>;

/**
 * The signed-in member and the item's creator are linked by member
 * management: one created the other's console account. Their decision is
 * allowed but flagged for review (docs/security.md, second accounts), and
 * the decision UI says so before it is made. `name` is the creator's.
 */
export const LinkedToYou = z.strictObject({
  name: z.string(),
  direction: z.enum(['YOU_CREATED_THEM', 'THEY_CREATED_YOU']),
});
export type LinkedToYou = z.infer<typeof LinkedToYou>;

/** How many of the still-eligible members an answer names; `moreEligible` counts the rest. */
export const MAX_ELIGIBLE_NAMED = 10;

export const ApprovalProgress = z.strictObject({
  entityId: z.string(),
  /** The approvable kind (TRANSACTION, BANK_ACCOUNT, CONTACT …) its rule is frozen on. */
  entityType: z.string(),
  policyVersion: z.int(),
  ruleName: z.string(),
  /** The rule blocks the item: it can only be declined. */
  blocked: z.boolean(),
  /** Approvals the rule needs (0 when it blocks). */
  required: z.int().check(z.nonnegative()),
  state: z.enum(['PENDING', 'APPROVED', 'DECLINED']),
  /** The eligible approvals counted so far, in the order they were given. */
  approvals: z.array(ProgressDecision),
  declinedBy: z.nullable(ProgressDecision),
  /** Who counts, in words: "admins", "Ada Approver or approvers", "anyone who may approve". */
  eligible: z.string(),
  /**
   * Members who could still approve: eligible, not the initiator, able to
   * see the item (its sub-organization), not disabled, not yet decided.
   * The first MAX_ELIGIBLE_NAMED by name.
   */
  stillEligible: z.array(EligibleMember),
  moreEligible: z.int().check(z.nonnegative()),
  /** An API client may also approve (its approval is the one that completes the rule). */
  apiClientsMayApprove: z.boolean(),
  /** Set, for the member asking, when a decision of theirs on this item would be flagged. */
  linkedToYou: z.nullable(LinkedToYou),
});
export type ApprovalProgress = z.infer<typeof ApprovalProgress>;

/** The ids asked about, as the decisions' read takes them (comma-separated, at most 100). */
export { ApprovalDecisionQuery as ApprovalProgressQuery } from './approval-decision.ts';

export const ApprovalProgressList = z.strictObject({ results: z.array(ApprovalProgress) });
export type ApprovalProgressList = z.infer<typeof ApprovalProgressList>;

/** "1 of 2 approvals", "Blocked by its rule", "Approved: 2 of 2". */
export function progressCount(progress: ApprovalProgress): string {
  if (progress.blocked) return `Blocked by the rule “${progress.ruleName}”`;
  const count = `${progress.approvals.length} of ${progress.required}`;
  return progress.state === 'APPROVED' ? `Approved: ${count}` : count;
}

/** "waiting for one more of: Bob Admin, Cleo Admin (admins)", or null once nothing waits. */
export function waitingFor(progress: ApprovalProgress): string | null {
  if (progress.state !== 'PENDING' || progress.blocked) return null;
  const left = progress.required - progress.approvals.length;
  const more = left === 1 ? 'one more' : `${left} more`;
  const names = progress.stillEligible.map((m) => m.name);
  if (progress.moreEligible > 0) names.push(`${progress.moreEligible} others`);
  if (progress.apiClientsMayApprove) names.push('an API client');
  if (names.length === 0)
    return `waiting for ${more} of ${progress.eligible}: no member who may approve it is left`;
  return `waiting for ${more} of: ${names.join(', ')} (${progress.eligible})`;
}
