import { asc, lt, max } from 'drizzle-orm';
import type { ApprovalEventKind } from '#contract/live-events.ts';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import { approvalEvents, type APPROVAL_EVENT_KINDS } from '../../db/schema/console.ts';
import { idsAfter, type LiveSource } from './source.ts';

type ApprovalEventRow = typeof approvalEvents.$inferInsert;

const KIND: Record<
  Exclude<(typeof APPROVAL_EVENT_KINDS)[number], 'PROGRESS'>,
  ApprovalEventKind
> = {
  PROPOSED: 'approval.proposed',
  DECIDED: 'approval.decided',
  VOTE: 'approval.vote',
};

/**
 * Records an approval event the console itself knows of (a policy vote; upstream, a
 * proposal or decision made through this console) in `console.approval_events`, inside the
 * caller's database transaction when given one, so it commits with the change it tells.
 */
export async function raiseApprovalEvent(
  db: Pick<Database, 'insert'>,
  event: Omit<ApprovalEventRow, 'id' | 'at'>,
  clock: Clock | Date,
): Promise<void> {
  const at = clock instanceof Date ? clock : clock.now();
  await db.insert(approvalEvents).values({ ...event, at });
}

/**
 * The console's approval events (`console.approval_events`), as a log the event stream
 * tails; a payment run's progress is told through it too.
 */
export function approvalEventSource(db: Database): LiveSource {
  return {
    tables: ['console.approval_events'],
    async head() {
      const [row] = await db.select({ id: max(approvalEvents.id) }).from(approvalEvents);
      return row?.id ?? 0;
    },
    async after(after, limit, upTo) {
      const rows = await db
        .select()
        .from(approvalEvents)
        .where(idsAfter(approvalEvents.id, after, upTo))
        .orderBy(asc(approvalEvents.id))
        .limit(limit);
      return rows.map((row) => ({
        id: row.id,
        // A payment run's progress (payment-runs/live.ts) rides this log: its own event shape.
        event:
          row.kind === 'PROGRESS'
            ? {
                kind: 'payment_run.progress',
                runId: row.entityId,
                subOrgId: row.subOrgId,
                status: row.status,
                at: row.at.toISOString(),
              }
            : {
                kind: KIND[row.kind],
                entityType: row.entityType,
                entityId: row.entityId,
                subOrgId: row.subOrgId,
                status: row.status,
                at: row.at.toISOString(),
              },
      }));
    },
  };
}

/** How long approval events are kept for streams to resume from: a day. */
export const APPROVAL_EVENTS_KEPT_MS = 24 * 60 * 60 * 1000;

/** Deletes approval events older than `before`; how many. */
export async function pruneApprovalEvents(db: Database, before: Date): Promise<number> {
  const gone = await db
    .delete(approvalEvents)
    .where(lt(approvalEvents.at, before))
    .returning({ id: approvalEvents.id });
  return gone.length;
}
