import { randomBytes, randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import {
  WEBHOOK_TEST_EVENT,
  type WebhookDelivery,
  type WebhookDeliveryTransaction,
  type WebhookEndpoint,
} from '#contract/webhooks.ts';
import type { Clock } from '../../../clock.ts';
import type { CustodyContext } from '../../../custody/call-context.ts';
import type { Database } from '../../../db/client.ts';
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '../../../db/schema/sandbox.ts';
import type { WebhookEndpointsAdmin, WebhooksPort } from '../port.ts';
import { newVerificationKey } from '../signing.ts';
import { checkTarget, type TargetPolicy } from '../targets.ts';
import type { Executor } from '../../../custody/sandbox/engine/transitions.ts';
import { DEFAULT_WEBHOOK_TIMEOUT_MS } from './dispatcher.ts';
import { RETRY_WINDOW_MS } from './outbox.ts';
import { postWebhook, signedWebhook } from './post.ts';

/** What the webhooks' sandbox needs of the composite (a structural subset of SandboxDeps). */
interface WebhooksDeps {
  db: Database;
  clock: Clock;
  orgIdFor(ctx: CustodyContext): Promise<string | null>;
}

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/**
 * What a test event carries: no transaction, and a sentence for whoever
 * reads the receiver's log. Printable ASCII, so either SDK example verifies
 * it whatever the endpoint's encoding.
 */
const TEST_EVENT_DATA = {
  test: true,
  message: 'A test event sent from the custody console on request. It reports no change.',
};

/** The fields of the event's transaction a log line names it by (contract/webhooks.ts). */
const NAMED_FIELDS = [
  'id',
  'category',
  'subCategory',
  'amount',
  'asset',
  'blockChain',
  'destination',
] as const;

/**
 * The event's transaction cut down to what names it, in the database: the
 * whole snapshot is several kilobytes a row. A contract call's data is kept
 * (it says what the call does: an unlimited approval is not "0 ETH").
 */
const namedTransaction = (() => {
  const t = sql`(${webhookEvents.data} -> 'transaction')`;
  const fields = NAMED_FIELDS.map((k) => sql`${sql.raw(`'${k}'`)}, ${t} -> ${sql.raw(`'${k}'`)}`);
  return sql<unknown>`case when ${t} is null or jsonb_typeof(${t}) <> 'object' then null else jsonb_build_object(${sql.join(fields, sql`, `)}, 'data', case when ${t} ->> 'category' = 'CONTRACT_CALL' then ${t} -> 'data' end) end`;
})();

/** The named transaction as the wire has it: a field the snapshot lacked is left out, not null. */
function transactionOf(value: unknown): WebhookDeliveryTransaction | null {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (!parsed || typeof parsed !== 'object') return null;
  return Object.fromEntries(
    Object.entries(parsed).filter(([, v]) => v !== null),
  ) as WebhookDeliveryTransaction;
}

const noEndpoint = (id: string) =>
  new ApiError(404, ERROR_CODES.notFound, `No webhook endpoint with id "${id}"`);

function invalidCursor(): ApiError {
  const message = 'cursor is not one this list issued: start again without it';
  return new ApiError(400, ERROR_CODES.invalidCursor, message, [{ field: 'cursor', message }]);
}

function encodeCursor(id: number): string {
  return Buffer.from(`webhook-delivery:${id}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^webhook-delivery:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match?.[1]) throw invalidCursor();
  // eslint-disable-next-line no-restricted-syntax -- a delivery's row id, at most 15 digits
  return Number(match[1]);
}

/** The sandbox's webhook endpoints, over its tables (the dispatcher sends: dispatcher.ts). */
export function webhookEndpointsSandbox(
  { db, clock, orgIdFor }: WebhooksDeps,
  targets: TargetPolicy,
  timeoutMs: number = DEFAULT_WEBHOOK_TIMEOUT_MS,
): WebhookEndpointsAdmin {
  async function orgOf(ctx: CustodyContext): Promise<string> {
    const orgId = await orgIdFor(ctx);
    if (!orgId)
      throw new ApiError(409, ERROR_CODES.conflict, 'The sandbox has no organization yet');
    return orgId;
  }

  async function counts(ids: string[], reader: Executor = db) {
    const rows =
      ids.length === 0
        ? []
        : await reader
            .select({
              endpointId: webhookDeliveries.endpointId,
              state: webhookDeliveries.state,
              n: sql<number>`count(*)::int`,
            })
            .from(webhookDeliveries)
            .where(inArray(webhookDeliveries.endpointId, ids))
            .groupBy(webhookDeliveries.endpointId, webhookDeliveries.state);
    return (id: string) => {
      const of = (state: string) =>
        // eslint-disable-next-line no-restricted-syntax -- a count of deliveries
        Number(rows.find((r) => r.endpointId === id && r.state === state)?.n ?? 0);
      return { pending: of('PENDING'), delivered: of('DELIVERED'), failed: of('FAILED') };
    };
  }

  function wire(row: EndpointRow, deliveries: WebhookEndpoint['deliveries']): WebhookEndpoint {
    return {
      id: row.id,
      url: row.url,
      description: row.description,
      events: row.events,
      signatureEncoding: row.signatureEncoding,
      enabled: row.enabled,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      deliveries,
    };
  }

  async function find(ctx: CustodyContext, id: string): Promise<EndpointRow> {
    const orgId = await orgOf(ctx);
    const [row] = await db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.orgId, orgId), eq(webhookEndpoints.id, id)));
    if (!row) throw noEndpoint(id);
    return row;
  }

  async function described(row: EndpointRow): Promise<WebhookEndpoint> {
    return wire(row, (await counts([row.id]))(row.id));
  }

  async function delivery(endpointId: string, deliveryId: number): Promise<WebhookDelivery> {
    const [row] = await deliveryRows(
      and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.id, deliveryId)),
    );
    if (!row)
      throw new ApiError(404, ERROR_CODES.notFound, `No webhook delivery with id "${deliveryId}"`);
    return row;
  }

  function deliveryRows(where: ReturnType<typeof and>, limit = 1, reader: Executor = db) {
    return reader
      .select({
        id: webhookDeliveries.id,
        eventId: webhookEvents.eventId,
        event: webhookEvents.event,
        transactionId: webhookDeliveries.transactionId,
        transaction: namedTransaction,
        status: webhookEvents.status,
        operationSequence: webhookEvents.operationSequence,
        state: webhookDeliveries.state,
        attempts: webhookDeliveries.attempts,
        lastStatusCode: webhookDeliveries.lastStatusCode,
        lastLatencyMs: webhookDeliveries.lastLatencyMs,
        lastError: webhookDeliveries.lastError,
        lastAttemptAt: webhookDeliveries.lastAttemptAt,
        nextAttemptAt: webhookDeliveries.nextAttemptAt,
        deliveredAt: webhookDeliveries.deliveredAt,
        createdAt: webhookDeliveries.createdAt,
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.seq, webhookDeliveries.eventSeq))
      .where(where)
      .orderBy(desc(webhookDeliveries.id))
      .limit(limit)
      .then((rows) =>
        rows.map((r): WebhookDelivery => ({
          ...r,
          id: String(r.id),
          test: r.event === WEBHOOK_TEST_EVENT,
          transaction: transactionOf(r.transaction),
          lastAttemptAt: r.lastAttemptAt?.toISOString() ?? null,
          // A claimed attempt's lease is no time to show: "due" only while waiting.
          nextAttemptAt: r.state === 'PENDING' ? (r.nextAttemptAt?.toISOString() ?? null) : null,
          deliveredAt: r.deliveredAt?.toISOString() ?? null,
          createdAt: r.createdAt.toISOString(),
        })),
      );
  }

  function parseDeliveryId(value: string): number {
    if (!/^\d{1,15}$/.test(value))
      throw new ApiError(404, ERROR_CODES.notFound, `No webhook delivery with id "${value}"`);
    // eslint-disable-next-line no-restricted-syntax -- a delivery's row id, at most 15 digits
    return Number(value);
  }

  return {
    async list(ctx) {
      const orgId = await orgOf(ctx);
      const rows = await db
        .select()
        .from(webhookEndpoints)
        .where(eq(webhookEndpoints.orgId, orgId))
        .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
      const of = await counts(rows.map((r) => r.id));
      return rows.map((row) => wire(row, of(row.id)));
    },

    async create(ctx, body, createdBy) {
      const orgId = await orgOf(ctx);
      await checkTarget(body.url, targets);
      const now = clock.now();
      const verificationKey = newVerificationKey();
      const [row] = await db
        .insert(webhookEndpoints)
        .values({
          id: `whe_${randomBytes(8).toString('hex')}`,
          orgId,
          url: body.url,
          description: body.description?.trim() || null,
          events: body.events,
          signatureEncoding: body.signatureEncoding ?? 'ASCII_ESCAPED',
          verificationKey,
          enabled: true,
          createdBy,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      if (!row) throw new Error('insert into webhook_endpoints returned no row');
      return { ...wire(row, { pending: 0, delivered: 0, failed: 0 }), verificationKey };
    },

    async setEnabled(ctx, id, enabled) {
      const row = await find(ctx, id);
      const [updated] = await db
        .update(webhookEndpoints)
        .set({ enabled, updatedAt: clock.now() })
        .where(eq(webhookEndpoints.id, row.id))
        .returning();
      return described(updated ?? row);
    },

    async remove(ctx, id) {
      const row = await find(ctx, id);
      const answer = await described(row);
      // Its deliveries go with it, each table named by its own statement (no
      // cascade: the read cache counts writes per table it is told of); the
      // events stay for other endpoints. The row lock comes first, so a
      // delivery queued for it meanwhile (its foreign key takes a share lock
      // on the endpoint) waits, then finds it gone.
      await db.transaction(async (tx) => {
        await tx
          .select({ id: webhookEndpoints.id })
          .from(webhookEndpoints)
          .where(eq(webhookEndpoints.id, row.id))
          .for('update');
        await tx.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, row.id));
        await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, row.id));
      });
      return answer;
    },

    async deliveries(ctx, endpointId, query) {
      const row = await find(ctx, endpointId);
      const before = query.cursor ? decodeCursor(query.cursor) : undefined;
      // The page and the counts from one snapshot: the counters shown above the table agree
      // with it even while the dispatcher settles deliveries between the two statements.
      const { rows, of } = await db.transaction(
        async (tx) => ({
          rows: await deliveryRows(
            and(
              eq(webhookDeliveries.endpointId, row.id),
              query.state ? eq(webhookDeliveries.state, query.state) : undefined,
              before !== undefined ? lt(webhookDeliveries.id, before) : undefined,
            ),
            query.limit + 1,
            tx,
          ),
          of: await counts([row.id], tx),
        }),
        { isolationLevel: 'repeatable read', accessMode: 'read only' },
      );
      const page = rows.slice(0, query.limit);
      const hasNext = rows.length > query.limit;
      const last = page.at(-1);
      return {
        results: page,
        hasNext,
        // eslint-disable-next-line no-restricted-syntax -- a delivery's row id
        nextCursor: hasNext && last ? encodeCursor(Number(last.id)) : null,
        deliveries: of(row.id),
      };
    },

    async resend(ctx, endpointId, deliveryIdText) {
      const row = await find(ctx, endpointId);
      const deliveryId = parseDeliveryId(deliveryIdText);
      const now = clock.now();
      await delivery(row.id, deliveryId);
      // Delivered or failed: sent again. Waiting for a retry after a failed attempt: sent now.
      // Never queued before its first attempt (it is about to be sent anyway).
      await db
        .update(webhookDeliveries)
        .set({
          state: 'PENDING',
          nextAttemptAt: now,
          giveUpAt: new Date(now.getTime() + RETRY_WINDOW_MS),
          deliveredAt: null,
        })
        .where(
          and(
            eq(webhookDeliveries.id, deliveryId),
            or(
              inArray(webhookDeliveries.state, ['DELIVERED', 'FAILED']),
              isNotNull(webhookDeliveries.lastError),
            ),
          ),
        );
      return delivery(row.id, deliveryId);
    },

    async resendFailed(ctx, endpointId) {
      const row = await find(ctx, endpointId);
      const now = clock.now();
      const resent = await db
        .update(webhookDeliveries)
        .set({
          state: 'PENDING',
          nextAttemptAt: now,
          giveUpAt: new Date(now.getTime() + RETRY_WINDOW_MS),
        })
        .where(and(eq(webhookDeliveries.endpointId, row.id), eq(webhookDeliveries.state, 'FAILED')))
        .returning({ id: webhookDeliveries.id });
      return resent.length;
    },

    async sendTest(ctx, endpointId) {
      const row = await find(ctx, endpointId);
      const eventId = randomUUID();
      const at = clock.now();
      const { body, headers } = signedWebhook(
        {
          key: row.verificationKey,
          encoding: row.signatureEncoding,
          eventId,
          event: WEBHOOK_TEST_EVENT,
          data: TEST_EVENT_DATA,
        },
        at,
      );
      // Sent first, logged after: a test is never queued, so the dispatcher never sends it again.
      const outcome = await postWebhook(row.url, body, headers, { targets, timeoutMs });
      const delivered = outcome.error === null;
      const id = await db.transaction(async (tx) => {
        // Deleted while the request was out: nothing to log it under.
        const [still] = await tx
          .select({ id: webhookEndpoints.id })
          .from(webhookEndpoints)
          .where(eq(webhookEndpoints.id, row.id))
          .for('share');
        if (!still) throw noEndpoint(row.id);
        const [event] = await tx
          .insert(webhookEvents)
          .values({
            eventId,
            orgId: row.orgId,
            event: WEBHOOK_TEST_EVENT,
            transactionId: null,
            status: 'TEST',
            operationSequence: null,
            data: TEST_EVENT_DATA,
            at,
          })
          .returning({ seq: webhookEvents.seq });
        if (!event) throw new Error('insert into webhook_events returned no row');
        const [logged] = await tx
          .insert(webhookDeliveries)
          .values({
            endpointId: row.id,
            eventSeq: event.seq,
            transactionId: null,
            state: delivered ? 'DELIVERED' : 'FAILED',
            attempts: 1,
            nextAttemptAt: null,
            giveUpAt: at,
            lastAttemptAt: at,
            lastStatusCode: outcome.statusCode,
            lastLatencyMs: Math.round(outcome.latencyMs),
            lastError: outcome.error,
            deliveredAt: delivered ? clock.now() : null,
            createdAt: at,
          })
          .returning({ id: webhookDeliveries.id });
        if (!logged) throw new Error('insert into webhook_deliveries returned no row');
        return logged.id;
      });
      return delivery(row.id, id);
    },
  };
}

/** The sandbox's part of the custody backend: its webhook endpoints. */
export function webhooksSandbox(
  deps: WebhooksDeps,
  targets: TargetPolicy,
  timeoutMs?: number,
): WebhooksPort {
  return { webhookEndpoints: webhookEndpointsSandbox(deps, targets, timeoutMs) };
}
