import * as z from 'zod/mini';
import { ChangeRequestActor } from './change-request.ts';

/**
 * The console's record of how a change request was decided: who, when, and
 * the outcome. The custody API answers a decision but never shows it again on
 * the transaction or bank account, so the console serves it on its own path
 * (GET /api/console/approval_decisions/?entityIds=a,b,…) for exports and pages.
 */

const APPROVAL_DECISIONS_MAX_IDS = 100;

export const ApprovalDecisionQuery = z.object({
  entityIds: z.pipe(
    z.pipe(
      z
        .string({
          error: 'entityIds is required: the ids of transactions or bank accounts, comma-separated',
        })
        .check(z.trim(), z.minLength(1, 'entityIds must name at least one id')),
      z.transform((s: string) => [
        ...new Set(
          s
            .split(',')
            .map((id) => id.trim())
            .filter(Boolean),
        ),
      ]),
    ),
    z
      .array(
        z.string().check(z.maxLength(200, 'each id in entityIds must be at most 200 characters')),
      )
      .check(
        z.minLength(1, 'entityIds must name at least one id'),
        z.maxLength(
          APPROVAL_DECISIONS_MAX_IDS,
          `entityIds must name at most ${APPROVAL_DECISIONS_MAX_IDS} ids`,
        ),
      ),
  ),
});

const ApprovalDecisionOutcome = z.enum(['APPROVED', 'REJECTED']);
type ApprovalDecisionOutcome = z.infer<typeof ApprovalDecisionOutcome>;

export const ApprovalDecision = z.looseObject({
  entityId: z.string(),
  entityType: z.string(),
  decision: ApprovalDecisionOutcome,
  decidedAt: z.string(),
  /** STAFF or API_USER, named when the console knows the name. */
  decidedBy: ChangeRequestActor,
  reason: z.optional(z.nullable(z.string())),
  /**
   * Flagged: the decider created the creator's console account, or the
   * creator created the decider's: perhaps one person under two names.
   */
  linkedAccounts: z.optional(z.boolean()),
});
export type ApprovalDecision = z.infer<typeof ApprovalDecision>;

export const ApprovalDecisionList = z.looseObject({ results: z.array(ApprovalDecision) });
export type ApprovalDecisionList = z.infer<typeof ApprovalDecisionList>;
