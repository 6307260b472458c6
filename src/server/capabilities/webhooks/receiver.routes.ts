import { Hono, type Context, type MiddlewareHandler } from 'hono';
import * as z from 'zod/mini';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { receiveCustodyWebhook } from '#contract/endpoints/webhooks.ts';
import { WebhookEvent } from '#contract/webhooks.ts';
import type { Clock } from '../../clock.ts';
import type { CustodyEventSink } from '../live/sink.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { limitBody } from '../../http/body-limit.ts';
import { mount } from '../../http/mount.ts';
import { verifySignature } from './signing.ts';

/**
 * The console's receiver of custody webhooks: how it learns of
 * changes from an upstream custody service. No session: the signature is
 * the check (`X-Signature` over the body's sorted-keys JSON and
 * `X-Timestamp`, keyed with CUSTODY_WEBHOOK_KEY; either SDK's writing of
 * non-ASCII is accepted: signing.ts). A timestamp more than five minutes
 * from the console's clock is refused, and so is an eventId already
 * received: the event stored in `console.custody_events` (capabilities/live/sink.ts)
 * is the receipt, whose unique eventId decides between two at once. The
 * answer waits for that one insert only; the streams' fan-out follows it.
 *
 * Anyone may call it, so nothing is read before the headers could sign a
 * body (README, "Request bodies are read only for an identified caller"):
 * no key configured is a 503, a missing or malformed signature, or a
 * timestamp out of tolerance, a 401, each answered unread, and the
 * connection closes after the answer (http/body-limit.ts's `limitBody`).
 * Only then is the body read, within a limit sized to real events and a
 * short deadline: a caller who adds made-up headers holds 64 KiB for 2 s at
 * most, not 1 MiB for 10 s (200 such connections took 222 MB resident).
 */

/** What the receiver hands on, one per accepted webhook: live updates' store (capabilities/live/sink.ts). */
export type { CustodyEventSink };
export type CustodyEvent = Parameters<CustodyEventSink['record']>[0];

/** How far `X-Timestamp` may be from the console's clock, either way. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;
/**
 * The largest webhook body read. The sandbox's own events are 3.4 KB at the
 * median and 6.3 KB at the most (a swap's operation event, over the 577
 * events of the seeded transactions: every category, operations, fees,
 * balance changes, status history); a 500-character memo of non-ASCII text
 * written `\uXXXX` adds 3 KB, a 128-character externalId under 1 KB. Ten
 * times the largest leaves room for a contract call's data (up to about
 * 27 KB of call data, written as hex).
 */
export const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;
/** How long a webhook's body may take to arrive: 64 KiB at 1 Mbit/s is half a second. */
export const WEBHOOK_BODY_READ_TIMEOUT_MS = 2_000;
export interface ReceiverOptions {
  clock: Clock;
  /** CUSTODY_WEBHOOK_KEY; null: the receiver accepts nothing. */
  key: string | null;
  sink: CustodyEventSink;
}

function refused(status: 400 | 401 | 409, code: string, message: string, field?: string) {
  return new ApiError(status, code, message, field ? [{ field, message }] : undefined);
}

/** The event a webhook stands for, or a refusal naming what is missing. */
export function normalise(body: WebhookEvent, receivedAt: Date): CustodyEvent {
  const { transaction, transactionOperation } = body.data;
  const operation = body.event === 'TRANSACTION_OPERATION_STATUS_CHANGED';
  const transactionId = transaction?.id ?? transactionOperation?.transactionId;
  if (!transactionId)
    throw refused(
      400,
      ERROR_CODES.validation,
      'data.transaction.id is required: the webhook names no transaction',
      'data.transaction.id',
    );
  const status = operation ? transactionOperation?.status : transaction?.status;
  if (!status)
    throw refused(
      400,
      ERROR_CODES.validation,
      operation
        ? 'data.transactionOperation.status is required on TRANSACTION_OPERATION_STATUS_CHANGED'
        : 'data.transaction.status is required on TRANSACTION_STATUS_CHANGED',
      operation ? 'data.transactionOperation.status' : 'data.transaction.status',
    );
  return {
    eventId: body.eventId,
    kind: operation ? 'transaction.operation.status' : 'transaction.status',
    transactionId,
    subOrgId: transaction?.subOrgId ?? null,
    status,
    at: transaction?.updatedAt ?? receivedAt.toISOString(),
  };
}

/**
 * What the headers say, checked before the body is read: the key configured, a signature
 * given, a timestamp of unix seconds within tolerance. A refusal here leaves the body unread.
 */
function signedHeaders(c: Context<AppEnv>, key: string | null, now: Date) {
  if (!key)
    throw new ApiError(
      503,
      ERROR_CODES.webhookReceiverOff,
      'This console receives no custody webhooks: CUSTODY_WEBHOOK_KEY is not set',
    );
  const signature = c.req.header('x-signature')?.trim() ?? '';
  const stamp = c.req.header('x-timestamp')?.trim() ?? '';
  if (!signature)
    throw refused(
      401,
      ERROR_CODES.webhookSignatureInvalid,
      'X-Signature header is required',
      'X-Signature',
    );
  if (!/^\d{1,12}$/.test(stamp))
    throw refused(
      401,
      ERROR_CODES.webhookTimestampStale,
      'X-Timestamp header must be unix seconds',
      'X-Timestamp',
    );
  const timestamp = Number(stamp);
  if (Math.abs(now.getTime() / 1000 - timestamp) > WEBHOOK_TOLERANCE_SECONDS)
    throw refused(
      401,
      ERROR_CODES.webhookTimestampStale,
      `X-Timestamp must be within ${WEBHOOK_TOLERANCE_SECONDS / 60} minutes of the console's clock (${Math.floor(now.getTime() / 1000)}); it is ${timestamp}`,
      'X-Timestamp',
    );
  return { key, signature, timestamp };
}

export function custodyWebhookRoutes(options: ReceiverOptions) {
  const { clock, key, sink } = options;
  const app = new Hono<AppEnv>();
  // Runs before the body limit and the mount's read: an unsignable request is refused unread.
  const headersFirst: MiddlewareHandler<AppEnv> = async (c, next) => {
    signedHeaders(c, key, clock.now());
    await next();
  };

  mount(
    app,
    '',
    receiveCustodyWebhook,
    async ({ body: raw }, c) => {
      const now = clock.now();
      // Checked again with the clock of the read: a body that took its time is judged by now.
      const signed = signedHeaders(c, key, now);
      if (!verifySignature(signed.key, raw, signed.timestamp, signed.signature))
        throw refused(
          401,
          ERROR_CODES.webhookSignatureInvalid,
          'X-Signature does not sign this body and X-Timestamp with the configured key',
          'X-Signature',
        );
      const parsed = z.safeParse(WebhookEvent, raw);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = issue?.path.join('.') || 'body';
        throw refused(
          400,
          ERROR_CODES.validation,
          `${field}: ${issue?.message ?? 'invalid'}`,
          field,
        );
      }
      const event = normalise(parsed.data, now);
      // Stored once, with one insert (the stream's fan-out follows, after the answer): the
      // stored event is also the receipt a replay is refused by.
      if (!(await sink.record(event)))
        throw refused(
          409,
          ERROR_CODES.webhookReplayed,
          `eventId ${event.eventId} was already received: an event is processed once`,
          'eventId',
        );
      return { received: true as const, eventId: event.eventId };
    },
    {
      body: (raw) => raw as WebhookEvent,
      before: [headersFirst, limitBody(MAX_WEBHOOK_BODY_BYTES, WEBHOOK_BODY_READ_TIMEOUT_MS)],
    },
  );

  return app;
}
