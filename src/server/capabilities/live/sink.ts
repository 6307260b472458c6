import { sql } from 'drizzle-orm';
import * as z from 'zod/mini';
import { ERROR_CODES } from '#contract/common.ts';
import { ApiError } from '#contract/api-error.ts';
import { TRANSACTION_EVENT_KINDS } from '#contract/live-events.ts';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import { declaredWrite } from '../../db/declared-writes.ts';
import { custodyEvents } from '../../db/schema/console.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { CUSTODY_EVENTS_KEPT_MS, pruneCustodyEvents, TYPE_OF_KIND } from './custody-source.ts';

/**
 * Where the console's webhook receiver hands each verified event of the
 * custody service (upstream mode): stored once per `eventId` in
 * `console.custody_events`, whose trigger wakes the event stream of every
 * console server on the database (hub.ts). Answers whether it was stored: a
 * repeated delivery stores nothing and answers false (the receiver's 409).
 */
export interface CustodyEventSink {
  record(event: {
    eventId: string;
    kind: 'transaction.status' | 'transaction.operation.status';
    transactionId: string;
    subOrgId: string | null;
    status: string;
    at: string; // ISO 8601
  }): Promise<boolean>;
}

const required = (field: string) =>
  z.string().check(z.minLength(1, `${field} is required and must not be empty`));

const RecordedEvent = z.object({
  eventId: required('eventId'),
  kind: z.enum(
    TRANSACTION_EVENT_KINDS,
    `kind must be one of ${TRANSACTION_EVENT_KINDS.join(', ')}`,
  ),
  transactionId: required('transactionId'),
  subOrgId: z.nullable(required('subOrgId')),
  status: required('status'),
  at: z.iso.datetime({ offset: true, message: 'at must be an ISO 8601 date and time' }),
});

export function createCustodyEventSink(db: Database, clock: Clock): CustodyEventSink {
  // The stored events are the receiver's receipts too: kept two days whether or not a stream
  // is open to prune them (hub.ts), so the receiver prunes them as well, hourly.
  let lastPrune = 0;
  const prune = async () => {
    const now = clock.now().getTime();
    if (now - lastPrune < 60 * 60_000) return;
    lastPrune = now;
    await pruneCustodyEvents(db, new Date(now - CUSTODY_EVENTS_KEPT_MS));
  };
  return {
    async record(input) {
      const parsed = z.safeParse(RecordedEvent, input);
      if (!parsed.success) {
        const fields = parsed.error.issues.map((issue) => ({
          field: issue.path.join('.') || 'event',
          message: issue.message,
        }));
        throw new ApiError(
          400,
          ERROR_CODES.validation,
          `A custody event was refused: ${fields.map((f) => f.message).join('; ')}`,
          fields,
        );
      }
      const event = parsed.data;
      // Not ON CONFLICT DO NOTHING: that takes an id for a repeated delivery too, and every
      // id skipped is a gap the streams' tail waits at (hub.ts). A repeat that races the
      // first past this check is refused by the unique index, and ignored.
      const values = sql`select ${event.eventId}, ${TYPE_OF_KIND[event.kind]}, ${event.transactionId}, ${event.subOrgId}, ${event.status}, ${new Date(event.at).toISOString()}::timestamptz, ${clock.now().toISOString()}::timestamptz`;
      try {
        const result = await declaredWrite(db, [custodyEvents], () =>
          db.execute<{ id: number }>(sql`
            insert into ${custodyEvents}
              (event_id, type, transaction_id, sub_org_id, status, at, received_at)
            ${values}
            where not exists (select 1 from ${custodyEvents} where ${custodyEvents.eventId} = ${event.eventId})
            returning id`),
        );
        // PGlite's driver answers { rows }, node-postgres's too; drizzle types it loosely.
        const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
        if (rows.length === 0) return false;
        await prune();
        return true;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        return false;
      }
    },
  };
}
