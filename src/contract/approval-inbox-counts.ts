import * as z from 'zod/mini';

/**
 * The approvals inbox's counts and filters (approval-inbox.ts holds its
 * items). Apart from the items so that the navigation's badge, shown on
 * every page, loads none of the schemas of what waits in the inbox.
 */
export const ApprovalInboxCounts = z.looseObject({
  /** Every item in the inbox (all pages) that this member may decide: not their own. */
  actionableCount: z.int().check(z.nonnegative()),
  /** Every item in the inbox, theirs included. */
  totalCount: z.int().check(z.nonnegative()),
  /**
   * Of those, the ones this member approved that still wait for more
   * approvals under their rule: in the total, not in `actionableCount`, and
   * not theirs either.
   */
  youApprovedCount: z.int().check(z.nonnegative()),
});
export type ApprovalInboxCounts = z.infer<typeof ApprovalInboxCounts>;

/** Filters of the inbox: the scope switcher's sub-org, as on every list. */
export const ApprovalInboxFilters = z.object({
  subOrgId: z.optional(z.string().check(z.minLength(1))),
});
export type ApprovalInboxFilters = z.infer<typeof ApprovalInboxFilters>;
