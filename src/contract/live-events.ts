import * as z from 'zod/mini';

/**
 * What the console's event stream (`GET /api/console/events`, server-sent
 * events) tells a signed-in browser. Each is sent as `event: change` with
 * this JSON as its data and the stream's position as its `id`, which a
 * reconnecting browser sends back as `Last-Event-ID` to receive exactly what
 * it missed. A member receives only the changes of items in their
 * sub-organizations.
 *
 * - `transaction.status`, `transaction.operation.status`: a transaction, or
 *   one of its operations, changed status.
 * - `approval.proposed`: a bank account or contact was proposed (or a change
 *   to an approved contact's assets): it now waits for a decision.
 * - `approval.decided`: a bank account's or contact's change request was
 *   approved or rejected.
 * - `approval.vote`: a member's decision was recorded on an item an approval
 *   policy holds for more approvals (or a recorded one was withdrawn): its
 *   progress moved, its status did not.
 * - `payment_run.progress`: a payment run's rows or status moved (a row
 *   sent, ended, refused; the run paused, resumed, cancelled, retried,
 *   finished).
 *
 * Two more events carry no data a page reads: `ready` once the stream is
 * set up (what was missed, if anything, has been sent), and `reset` when what
 * was missed can no longer be replayed (too much, or the position is
 * unknown): the browser then refetches everything it shows.
 */
export const TRANSACTION_EVENT_KINDS = [
  'transaction.status',
  'transaction.operation.status',
] as const;
export type TransactionEventKind = (typeof TRANSACTION_EVENT_KINDS)[number];

export const APPROVAL_EVENT_KINDS = [
  'approval.proposed',
  'approval.decided',
  'approval.vote',
] as const;
export type ApprovalEventKind = (typeof APPROVAL_EVENT_KINDS)[number];

export const TransactionLiveEvent = z.object({
  kind: z.enum(TRANSACTION_EVENT_KINDS),
  transactionId: z.string(),
  /** The transaction's sub-organization; null for the organization's own. */
  subOrgId: z.nullable(z.string()),
  /** The new status: a transaction's (contract/enums.ts) or an operation's, as the service names it. */
  status: z.string(),
  /** When it changed, ISO 8601. */
  at: z.string(),
});
export type TransactionLiveEvent = z.infer<typeof TransactionLiveEvent>;

export const ApprovalLiveEvent = z.object({
  kind: z.enum(APPROVAL_EVENT_KINDS),
  /**
   * The approvable kind (TRANSACTION, BANK_ACCOUNT, CONTACT …): every kind the
   * server's approval core holds raises these, and a page acts on the kinds it shows.
   */
  entityType: z.string(),
  entityId: z.string(),
  /** The item's sub-organization; null for the organization's own. */
  subOrgId: z.nullable(z.string()),
  /**
   * proposed: PENDING; decided: APPROVED or REJECTED (the change request's
   * outcome); vote: APPROVE, DECLINE or WITHDRAWN.
   */
  status: z.string(),
  /** When it happened, ISO 8601. */
  at: z.string(),
});
export type ApprovalLiveEvent = z.infer<typeof ApprovalLiveEvent>;

export const PAYMENT_RUN_EVENT_KINDS = ['payment_run.progress'] as const;

export const PaymentRunLiveEvent = z.object({
  kind: z.enum(PAYMENT_RUN_EVENT_KINDS),
  runId: z.string(),
  /** The run's sub-organization; null for the organization's own. */
  subOrgId: z.nullable(z.string()),
  /** The run's status after the change (contract/payment-runs.ts). */
  status: z.string(),
  /** When it happened, ISO 8601. */
  at: z.string(),
});
export type PaymentRunLiveEvent = z.infer<typeof PaymentRunLiveEvent>;

export const LiveEvent = z.union([TransactionLiveEvent, ApprovalLiveEvent, PaymentRunLiveEvent]);
export type LiveEvent = z.infer<typeof LiveEvent>;

export function isApprovalEvent(event: LiveEvent): event is ApprovalLiveEvent {
  return 'entityType' in event;
}

export function isPaymentRunEvent(event: LiveEvent): event is PaymentRunLiveEvent {
  return 'runId' in event;
}

export function isTransactionEvent(event: LiveEvent): event is TransactionLiveEvent {
  return 'transactionId' in event;
}

/** The SSE event names the stream sends. */
export const LIVE_STREAM_EVENTS = { change: 'change', ready: 'ready', reset: 'reset' } as const;
