import { z } from 'zod';

/**
 * The console's record of an entity's change requests: who proposed it, who
 * decided it, when, and why. Not part of the custody API (which only lets a
 * client fetch the message to sign and decide): the console server answers
 * it under /api/console from the sandbox's change requests, or, when the
 * backend keeps none it can read, from the console's own audit log.
 */

export const CHANGE_REQUEST_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;

/** A person or API client named by the record; `name` when the console knows it. */
export const ChangeRequestActor = z.looseObject({
  type: z.string(),
  id: z.string(),
  name: z.string().nullable().optional(),
});
export type ChangeRequestActor = z.infer<typeof ChangeRequestActor>;

export const ChangeRequestRecord = z.looseObject({
  /** Absent when the record comes from the audit log, which has no change-request id. */
  changeRequestId: z.string().nullable().optional(),
  status: z.string(),
  proposedBy: ChangeRequestActor.nullable(),
  proposedAt: z.string().nullable(),
  decidedBy: ChangeRequestActor.nullable(),
  decidedAt: z.string().nullable(),
  reason: z.string().nullable(),
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
} as const;
