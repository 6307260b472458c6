import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Operation } from '#contract/transaction.ts';
import type { WebhookEventType } from '#contract/webhooks.ts';
import {
  transactions,
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
} from '../../../db/schema/sandbox.ts';
import type { Executor } from '../../../custody/sandbox/engine/transitions.ts';
import { tableName, threadWriteVersion } from '../../../db/read-cache.ts';
import { transactionDetail } from '../../../custody/sandbox/transaction-detail.ts';

/**
 * The webhooks' outbox: the engine calls this inside the database
 * transaction that changes a status (engine/transitions.ts, the ramp's
 * operation writes, a new transaction's PENDING), so an event exists if and
 * only if its change committed; the dispatcher (dispatcher.ts) sends it
 * after. An organization without an endpoint that wants the event costs one
 * indexed read (on PGlite none, while the endpoints are unchanged) and writes
 * nothing.
 */

/** Retries stop a day after the event: then the delivery is FAILED (and may be resent). */
export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface StatusChange {
  transactionId: string;
  /** The transaction's organization, when the caller has it: read otherwise. */
  orgId?: string;
  at: Date;
  /** The transaction's own status changed (to the status its row now holds). */
  statusChanged: boolean;
  /** Its operations before the change: each whose status differs now is an event of its own. */
  operationsBefore?: readonly Operation[] | null | undefined;
  /** Runs before the transaction and its history are read (status events kept back: engine/transitions.ts). */
  beforeRead?: () => Promise<void>;
}

interface PendingEvent {
  event: WebhookEventType;
  status: string;
  operationSequence: number | null;
  data: Record<string, unknown>;
}

interface Endpoint {
  id: string;
  events: (typeof webhookEndpoints.$inferSelect)['events'];
}

/** Every enabled endpoint by organization, at a write count of their table (PGlite only). */
let enabled: { version: string; byOrg: Map<string, Endpoint[]> } | undefined;

/**
 * The organization's enabled endpoints. On PGlite they are read once per
 * change to their table (db/read-cache.ts, threadWriteVersion), not once per
 * status change: a lifecycle step was 5 statements, this was one of them,
 * on the embedded database's one thread. An endpoint registered or disabled
 * counts as a write, so the next status change reads them again.
 */
async function endpointsOf(tx: Executor, change: StatusChange): Promise<Endpoint[]> {
  const version = change.orgId ? threadWriteVersion([tableName(webhookEndpoints)]) : undefined;
  if (version === undefined || !change.orgId)
    return tx
      .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
      .from(webhookEndpoints)
      .where(
        and(
          eq(webhookEndpoints.enabled, true),
          eq(
            webhookEndpoints.orgId,
            change.orgId ??
              sql`(select ${transactions.orgId} from ${transactions} where ${transactions.id} = ${change.transactionId})`,
          ),
        ),
      );
  if (enabled?.version !== version) {
    const rows = await tx
      .select({
        id: webhookEndpoints.id,
        orgId: webhookEndpoints.orgId,
        events: webhookEndpoints.events,
      })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.enabled, true));
    const byOrg = new Map<string, Endpoint[]>();
    for (const { orgId, ...endpoint } of rows)
      byOrg.set(orgId, [...(byOrg.get(orgId) ?? []), endpoint]);
    enabled = { version, byOrg };
  }
  return enabled.byOrg.get(change.orgId) ?? [];
}

export async function recordStatusChange(tx: Executor, change: StatusChange): Promise<void> {
  const endpoints = await endpointsOf(tx, change);
  if (endpoints.length === 0) return;
  await change.beforeRead?.();
  const [row] = await tx
    .select()
    .from(transactions)
    .where(eq(transactions.id, change.transactionId));
  if (!row) return;
  const transaction = await transactionDetail(tx, row);

  const pending: PendingEvent[] = [];
  // Operations first, in sequence, then the transaction: a ramp's last operation completes, then it does.
  const before = new Map(
    (change.operationsBefore ?? []).map((op) => [op.sequence ?? 0, op.status]),
  );
  for (const op of row.operations ?? []) {
    if (!op.status || before.get(op.sequence ?? 0) === op.status) continue;
    pending.push({
      event: 'TRANSACTION_OPERATION_STATUS_CHANGED',
      status: op.status,
      operationSequence: op.sequence ?? null,
      data: { transaction, transactionOperation: { ...op, transactionId: row.id } },
    });
  }
  if (change.statusChanged)
    pending.push({
      event: 'TRANSACTION_STATUS_CHANGED',
      status: row.status,
      operationSequence: null,
      data: { transaction },
    });

  const wanted = pending.filter((p) => endpoints.some((e) => e.events.includes(p.event)));
  if (wanted.length === 0) return;
  const inserted = await tx
    .insert(webhookEvents)
    .values(
      wanted.map((p) => ({
        eventId: randomUUID(),
        orgId: row.orgId,
        event: p.event,
        transactionId: row.id,
        status: p.status,
        operationSequence: p.operationSequence,
        data: p.data,
        at: change.at,
      })),
    )
    .returning({ seq: webhookEvents.seq, event: webhookEvents.event });
  // Sequence order is the order of the events: the dispatcher delivers a transaction's in it.
  inserted.sort((a, b) => a.seq - b.seq);
  const giveUpAt = new Date(change.at.getTime() + RETRY_WINDOW_MS);
  const deliveries = inserted.flatMap((e) =>
    endpoints
      // Only status changes are queued here (the test event is sent on request: index.ts).
      .filter((endpoint) => endpoint.events.some((wanted) => wanted === e.event))
      .map((endpoint) => ({
        endpointId: endpoint.id,
        eventSeq: e.seq,
        transactionId: row.id,
        state: 'PENDING' as const,
        nextAttemptAt: change.at,
        giveUpAt,
        createdAt: change.at,
      })),
  );
  if (deliveries.length > 0) await tx.insert(webhookDeliveries).values(deliveries);
}
