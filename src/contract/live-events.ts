import * as z from 'zod/mini';

/**
 * What the console's event stream (`GET /api/console/events`, server-sent
 * events) tells a signed-in browser: a transaction, or one of its
 * operations, changed status. Each is sent as `event: change` with this JSON
 * as its data and the stream's position as its `id`, which a reconnecting
 * browser sends back as `Last-Event-ID` to receive exactly what it missed.
 * A member receives only the changes of items in their sub-organizations.
 *
 * Two more events carry no data a page reads: `ready` once the stream is
 * set up (what was missed, if anything, has been sent), and `reset` when what
 * was missed can no longer be replayed (too much, or the position is
 * unknown): the browser then refetches everything it shows.
 */
export const LIVE_EVENT_KINDS = ['transaction.status', 'transaction.operation.status'] as const;
export type LiveEventKind = (typeof LIVE_EVENT_KINDS)[number];

export const LiveEvent = z.object({
  kind: z.enum(LIVE_EVENT_KINDS),
  transactionId: z.string(),
  /** The transaction's sub-organization; null for the organization's own. */
  subOrgId: z.nullable(z.string()),
  /** The new status: a transaction's (contract/enums.ts) or an operation's, as the service names it. */
  status: z.string(),
  /** When it changed, ISO 8601. */
  at: z.string(),
});
export type LiveEvent = z.infer<typeof LiveEvent>;

/** The SSE event names the stream sends. */
export const LIVE_STREAM_EVENTS = { change: 'change', ready: 'ready', reset: 'reset' } as const;
