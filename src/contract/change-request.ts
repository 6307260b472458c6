import * as z from 'zod/mini';

/**
 * The console's record of an entity's change requests: who proposed it, who
 * decided it, when, and why. Not part of the custody API (which only lets a
 * client fetch the message to sign and decide): the console server answers
 * it under /api/console from the sandbox's change requests, or, when the
 * backend keeps none it can read, from the console's own audit log.
 */

/** A person or API client named by the record; `name` when the console knows it. */
export const ChangeRequestActor = z.looseObject({
  type: z.string(),
  id: z.string(),
  name: z.optional(z.nullable(z.string())),
});
export type ChangeRequestActor = z.infer<typeof ChangeRequestActor>;

export const ChangeRequestRecord = z.looseObject({
  /** Absent when the record comes from the audit log, which has no change-request id. */
  changeRequestId: z.optional(z.nullable(z.string())),
  status: z.string(),
  proposedBy: z.nullable(ChangeRequestActor),
  proposedAt: z.nullable(z.string()),
  decidedBy: z.nullable(ChangeRequestActor),
  decidedAt: z.nullable(z.string()),
  reason: z.nullable(z.string()),
  /**
   * Flagged: the decider created the proposer's console account, or the
   * proposer created the decider's: perhaps one person under two names.
   */
  linkedAccounts: z.optional(z.boolean()),
  /** What it changes on an entity that already existed (a contact's new asset list); absent for its proposal. */
  proposedChange: z.optional(
    z.nullable(z.looseObject({ assetList: z.optional(z.array(z.string())) })),
  ),
});
export type ChangeRequestRecord = z.infer<typeof ChangeRequestRecord>;

/** Oldest first: the order the account went through them. */
export const ChangeRequestHistory = z.looseObject({
  entityId: z.string(),
  /** `change_requests` (the custody service's own record) or `audit_log` (what this console saw). */
  source: z.string(),
  results: z.array(ChangeRequestRecord),
});
export type ChangeRequestHistory = z.infer<typeof ChangeRequestHistory>;

export const changeRequestPaths = {
  bankAccountHistory: (id: string) =>
    `/api/console/bank_accounts/${encodeURIComponent(id)}/history/`,
  /** A transaction's: its creation (the proposal) and each decision on it. */
  transactionHistory: (id: string) =>
    `/api/console/transactions/${encodeURIComponent(id)}/history/`,
} as const;
