import * as z from 'zod/mini';
import { SignedIntent } from './approval-signature.ts';

/**
 * Change-request approvals (bank accounts, transactions, contacts, vaults):
 * the message an approver reads (and an API client signs), then the
 * decision. The console's own views of approvals are `approval-inbox.ts`
 * (what waits for a decision) and `approval-decision.ts` (how each was
 * decided); their endpoints are declared in `endpoints/approvals.ts`.
 */

/** GET approval_message's query: the bank account, transaction, contact or vault. */
export const ApprovalMessageQuery = z.object({ entityId: z.string() });
export type ApprovalMessageQuery = z.infer<typeof ApprovalMessageQuery>;

export const ApprovalMessageResponse = z.looseObject({
  approvalId: z.string(),
  message: z.string(),
  changeRequestId: z.optional(z.string()),
  entityId: z.optional(z.string()),
});
export type ApprovalMessageResponse = z.infer<typeof ApprovalMessageResponse>;

export const ApprovalAction = z.enum(['approve', 'reject']);
export type ApprovalAction = z.infer<typeof ApprovalAction>;

/**
 * API clients must send `signature` (hex signature of the approval message);
 * a signed-in staff member sends none and the server acts for them. Which
 * case applies is the server's decision, so the schema leaves it optional.
 */
export const ApprovalActionRequest = z
  .strictObject({
    action: ApprovalAction,
    signature: z.optional(
      z.string().check(z.regex(/^([0-9a-fA-F]{2})+$/, 'signature must be hex bytes')),
    ),
    reason: z.optional(
      z.string().check(z.trim(), z.maxLength(500, 'reason must be at most 500 characters')),
    ),
    // Sent by versions of the Python SDK (docs/api-clients.md, "What the
    // sandbox accepts from SDK clients"): checked against the approval, never
    // trusted instead of it.
    entityId: z.optional(
      z.string().check(z.maxLength(200, 'entityId must be at most 200 characters')),
    ),
    message: z.optional(
      z.string().check(z.maxLength(10_000, 'message must be at most 10000 characters')),
    ),
    // The console's own, on a ramp: the quote the approver saw. An approval
    // naming another than the ramp's current quote is refused (409
    // QUOTE_CHANGED), so a decision never accepts a rate nobody was shown.
    quoteId: z.optional(
      z.string().check(z.minLength(1), z.maxLength(200, 'quoteId must be at most 200 characters')),
    ),
    // The console's own, from a signed-in member: the digest of the approval
    // card they were shown and, when they sign, the passkey's assertion over
    // it (contract/approval-signature.ts). API clients sign the approval
    // message instead and never send it.
    intent: z.optional(SignedIntent),
  })
  .check(
    z.refine((b) => b.action !== 'reject' || Boolean(b.reason), {
      path: ['reason'],
      message: 'reason is required to reject',
    }),
  );
export type ApprovalActionRequest = z.infer<typeof ApprovalActionRequest>;

export const ApprovalActionResponse = z.looseObject({
  success: z.boolean(),
  status: z.optional(z.string()),
  id: z.optional(z.string()),
  entityId: z.optional(z.string()),
  /**
   * The console's own, when an approval policy's rule applies to the item
   * (contract/policies.ts): the approvals it has of those it needs. With
   * `status: PENDING`, the decision was recorded and the item waits for more.
   */
  policy: z.optional(
    z.looseObject({ ruleName: z.string(), approvals: z.int(), required: z.int() }),
  ),
});

/** What a recorded approval that is not yet enough says to the member who gave it; null otherwise. */
export function heldApprovalText(answer: ApprovalActionResponse): string | null {
  if (answer.status !== 'PENDING' || !answer.policy) return null;
  const { ruleName, approvals, required } = answer.policy;
  const more = required - approvals;
  return `Your approval is recorded: ${approvals} of ${required} under the rule "${ruleName}". It waits for ${more} more before anything is sent.`;
}
export type ApprovalActionResponse = z.infer<typeof ApprovalActionResponse>;
