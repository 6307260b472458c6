import { asc, lt, max } from 'drizzle-orm';
import type { TransactionEventKind } from '#contract/live-events.ts';
import type { Database } from '../../db/client.ts';
import { custodyEvents, type CUSTODY_EVENT_TYPES } from '../../db/schema/console.ts';
import { idsAfter, type LiveSource } from './source.ts';

type CustodyEventType = (typeof CUSTODY_EVENT_TYPES)[number];

/** The stream's kind of each stored webhook event type, and back. */
export const KIND_OF_TYPE: Record<CustodyEventType, TransactionEventKind> = {
  TRANSACTION_STATUS_CHANGED: 'transaction.status',
  TRANSACTION_OPERATION_STATUS_CHANGED: 'transaction.operation.status',
};
export const TYPE_OF_KIND: Record<TransactionEventKind, CustodyEventType> = {
  'transaction.status': 'TRANSACTION_STATUS_CHANGED',
  'transaction.operation.status': 'TRANSACTION_OPERATION_STATUS_CHANGED',
};

/**
 * How long received webhook events are kept: two days, longer than a sender's
 * retries (the sandbox retries for a day), so a redelivery is still refused
 * as a replay; streams may resume from as far back.
 */
export const CUSTODY_EVENTS_KEPT_MS = 48 * 60 * 60 * 1000;

/** The custody service's events the console stored (sink.ts), as a log the event stream tails. */
export function custodyEventSource(db: Database): LiveSource {
  return {
    tables: ['console.custody_events'],
    async head() {
      const [row] = await db.select({ id: max(custodyEvents.id) }).from(custodyEvents);
      return row?.id ?? 0;
    },
    async after(after, limit, upTo) {
      const rows = await db
        .select()
        .from(custodyEvents)
        .where(idsAfter(custodyEvents.id, after, upTo))
        .orderBy(asc(custodyEvents.id))
        .limit(limit);
      return rows.map((row) => ({
        id: row.id,
        event: {
          kind: KIND_OF_TYPE[row.type],
          transactionId: row.transactionId,
          subOrgId: row.subOrgId,
          status: row.status,
          at: row.at.toISOString(),
        },
      }));
    },
  };
}

/** Deletes stored events received before `before`; how many. */
export async function pruneCustodyEvents(db: Database, before: Date): Promise<number> {
  const gone = await db
    .delete(custodyEvents)
    .where(lt(custodyEvents.receivedAt, before))
    .returning({ id: custodyEvents.id });
  return gone.length;
}
