import * as z from 'zod/mini';
import { IsoTimestamp, listEnvelope } from './common.ts';
import { displayTextProblem } from './display-text.ts';
import { lenientEnum } from './enums.ts';
import { Operation, Transaction } from './transaction-record.ts';

/**
 * Webhooks, as the provider sends them: a JSON body
 * `{event, version: "2.0.0", eventId, data}` with `X-Signature` (hex
 * HMAC-SHA256 of the body's sorted-keys compact JSON followed by
 * `X-Timestamp`, keyed with the endpoint's verification key) and
 * `X-Timestamp` (unix seconds). The sandbox sends them to the endpoints an
 * admin registers; the console receives them at `/api/webhooks/custody/`.
 */

export const WEBHOOK_EVENT_TYPES = [
  'TRANSACTION_STATUS_CHANGED',
  'TRANSACTION_OPERATION_STATUS_CHANGED',
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

export const WEBHOOK_VERSION = '2.0.0';

/**
 * How the signed text writes a character outside printable ASCII. The two
 * SDK examples differ here and nowhere else (for the sandbox's bodies): the
 * Python one (`examples/webhooks.py`, `json.dumps(..., sort_keys=True,
 * separators=(",", ":"))`) escapes it as `\uXXXX` (ensure_ascii, the
 * default); the JavaScript one (`examples/webhook.tsx`, `JSON.stringify` of
 * the keys sorted) writes it as it is, in UTF-8. Both parse the body first,
 * so however the body spells a character, the text each signs is its own:
 * no one signature satisfies both once a value holds such a character. An
 * endpoint says which its receiver runs; a body of printable ASCII only
 * (most are) verifies with both either way. The body sent is the signed
 * text itself.
 */
export const SIGNATURE_ENCODINGS = ['ASCII_ESCAPED', 'UNESCAPED'] as const;
export const SignatureEncoding = z.enum(SIGNATURE_ENCODINGS);
export type SignatureEncoding = z.infer<typeof SignatureEncoding>;

/**
 * The choice in plain words: what the receiver gets first, the technical
 * term second. Both are the same JSON, signed the same way; only a letter
 * outside plain ASCII is written differently.
 */
export const SIGNATURE_ENCODING_LABELS: Readonly<Record<SignatureEncoding, string>> = {
  ASCII_ESCAPED:
    'Letters like é written as codes (\\u00e9): for a receiver that checks in Python (ASCII_ESCAPED)',
  UNESCAPED:
    'Letters like é sent as they are (UTF-8): for a receiver that checks in JavaScript (UNESCAPED)',
};

export const SIGNATURE_ENCODING_HINT =
  'Every event is a JSON body signed with HMAC-SHA256 in the X-Signature header (with the time in X-Timestamp), whichever you choose. The choice only changes how letters outside plain English are written, which must match how your receiver rebuilds the text it checks: Python’s json.dumps or JavaScript’s JSON.stringify.';

export const WEBHOOK_EVENT_LABELS: Readonly<Record<WebhookEventType, string>> = {
  TRANSACTION_STATUS_CHANGED: 'Transaction status changed',
  TRANSACTION_OPERATION_STATUS_CHANGED: 'Transaction operation status changed',
};

/** An operation as a webhook carries it: the transaction's operation, with the transaction's id. */
export const WebhookOperation = z.extend(Operation, { transactionId: z.string() });
export type WebhookOperation = z.infer<typeof WebhookOperation>;

/** The body of a webhook, as sent and as received. */
export const WebhookEvent = z.looseObject({
  event: lenientEnum(WEBHOOK_EVENT_TYPES),
  version: z.string(),
  eventId: z.string().check(z.minLength(1, 'eventId must not be empty')),
  data: z.looseObject({
    transaction: z.optional(Transaction),
    transactionOperation: z.optional(WebhookOperation),
  }),
});
export type WebhookEvent = z.infer<typeof WebhookEvent>;

/** What the console's receiver answers a webhook it accepted (before processing it). */
export const WebhookReceipt = z.object({ received: z.literal(true), eventId: z.string() });

export const WEBHOOK_DELIVERY_STATES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
export const WebhookDeliveryState = z.enum(WEBHOOK_DELIVERY_STATES);
export type WebhookDeliveryState = z.infer<typeof WebhookDeliveryState>;

/** Deliveries by state. */
export const WebhookDeliveryCounts = z.object({
  pending: z.number(),
  delivered: z.number(),
  failed: z.number(),
});
export type WebhookDeliveryCounts = z.infer<typeof WebhookDeliveryCounts>;

/** A registered endpoint, as listed: never its verification key. */
export const WebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  description: z.nullable(z.string()),
  events: z.array(lenientEnum(WEBHOOK_EVENT_TYPES)),
  signatureEncoding: lenientEnum(SIGNATURE_ENCODINGS),
  enabled: z.boolean(),
  createdAt: IsoTimestamp,
  updatedAt: IsoTimestamp,
  /** Deliveries by state: how the endpoint is doing at a glance. */
  deliveries: WebhookDeliveryCounts,
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

export const WebhookEndpointList = z.object({ results: z.array(WebhookEndpoint) });

/** The answer to a registration: the only time the verification key is shown. */
export const WebhookEndpointCreated = z.extend(WebhookEndpoint, { verificationKey: z.string() });
export type WebhookEndpointCreated = z.infer<typeof WebhookEndpointCreated>;

/**
 * A test event's type: sent on request to one endpoint (Settings → Webhooks,
 * "Send a test event"), never queued by a change. Its own type, not a
 * status change, so a receiver that acts on transactions ignores it.
 */
export const WEBHOOK_TEST_EVENT = 'WEBHOOK_TEST';
/** What a delivery may carry: the events an endpoint subscribes to, and the test event. */
export const WEBHOOK_DELIVERY_EVENTS = [...WEBHOOK_EVENT_TYPES, WEBHOOK_TEST_EVENT] as const;

/**
 * The transaction a delivery reports, as the event carried it: enough to
 * name it in one line and link to it.
 */
export const WebhookDeliveryTransaction = z.pick(Transaction, {
  id: true,
  category: true,
  subCategory: true,
  amount: true,
  asset: true,
  blockChain: true,
  destination: true,
  data: true,
});
export type WebhookDeliveryTransaction = z.infer<typeof WebhookDeliveryTransaction>;

/** One event's delivery to one endpoint: its log line. */
export const WebhookDelivery = z.object({
  id: z.string(),
  eventId: z.string(),
  event: lenientEnum(WEBHOOK_DELIVERY_EVENTS),
  /** A test event's: sent on request, reporting no change. */
  test: z.boolean(),
  /** The event's transaction; null on a test event. */
  transactionId: z.nullable(z.string()),
  transaction: z.nullable(WebhookDeliveryTransaction),
  /** The new status the event announces (the transaction's, or the operation's); TEST on a test event. */
  status: z.string(),
  /** The operation's sequence, on an operation's event. */
  operationSequence: z.nullable(z.number()),
  state: lenientEnum(WEBHOOK_DELIVERY_STATES),
  attempts: z.number(),
  lastStatusCode: z.nullable(z.number()),
  lastLatencyMs: z.nullable(z.number()),
  lastError: z.nullable(z.string()),
  lastAttemptAt: z.nullable(IsoTimestamp),
  nextAttemptAt: z.nullable(IsoTimestamp),
  deliveredAt: z.nullable(IsoTimestamp),
  /** When the event happened. */
  createdAt: IsoTimestamp,
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/**
 * A page of the log with the whole log's counts, read together: the
 * counters shown above the table always agree with it.
 */
export const WebhookDeliveryList = z.extend(listEnvelope(WebhookDelivery), {
  deliveries: WebhookDeliveryCounts,
});

export const WebhookDeliveryFilters = z.object({
  state: z.optional(z.enum(WEBHOOK_DELIVERY_STATES, 'state must be PENDING, DELIVERED or FAILED')),
});

export const WebhookResendResult = z.object({ resent: z.number() });

export const MAX_WEBHOOK_URL_LENGTH = 2048;
const MAX_DESCRIPTION_LENGTH = 200;

function urlProblem(value: string): string | null {
  if (value.length > MAX_WEBHOOK_URL_LENGTH)
    return `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'url must be an absolute URL, such as https://hooks.example.com/custody';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return `url must use https (or http), not ${url.protocol.replace(/:$/, '')}`;
  if (url.username || url.password) return 'url must not hold a user name or password';
  if (url.hash) return 'url must not have a #fragment';
  return null;
}

/** POST /api/console/webhooks/: register an endpoint. */
export const CreateWebhookEndpointRequest = z.object({
  url: z.string().check(
    z.trim(),
    z.minLength(1, 'url is required'),
    z.superRefine((value, ctx) => {
      const problem = urlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
    }),
  ),
  events: z
    .array(
      z.enum(WEBHOOK_EVENT_TYPES, `events must each be one of ${WEBHOOK_EVENT_TYPES.join(', ')}`),
    )
    .check(
      z.minLength(1, 'events must name at least one event'),
      z.refine((list) => new Set(list).size === list.length, 'events must not repeat an event'),
    ),
  description: z.optional(
    z.nullable(
      z.string().check(
        z.trim(),
        z.maxLength(
          MAX_DESCRIPTION_LENGTH,
          `description must be at most ${MAX_DESCRIPTION_LENGTH} characters`,
        ),
        z.superRefine((value, ctx) => {
          const problem = displayTextProblem('description', value);
          if (problem) ctx.addIssue({ code: 'custom', message: problem, input: value });
        }),
      ),
    ),
  ),
  signatureEncoding: z.optional(
    z.enum(SIGNATURE_ENCODINGS, 'signatureEncoding must be ASCII_ESCAPED or UNESCAPED'),
  ),
});
export type CreateWebhookEndpointRequest = z.infer<typeof CreateWebhookEndpointRequest>;

/** PATCH /api/console/webhooks/:endpointId/: turn an endpoint on or off. */
export const UpdateWebhookEndpointRequest = z.object({
  enabled: z.boolean('enabled must be true or false'),
});
