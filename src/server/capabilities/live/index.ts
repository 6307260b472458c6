import type { Logger } from 'pino';
import type { Clock } from '../../clock.ts';
import { liveSessions } from '../../auth/session.store.ts';
import type { Database, DatabaseHandle } from '../../db/client.ts';
import { tableName } from '../../db/read-cache.ts';
import { sessions, staff } from '../../db/schema/console.ts';
import { approvalEventSource } from './approval-source.ts';
import { custodyEventSource } from './custody-source.ts';
import { LiveHub, type LiveHubOptions } from './hub.ts';
import { sandboxChangeRequestSource } from './sandbox/change-request-source.ts';
import { sandboxStatusSource } from './sandbox/status-source.ts';
import type { LiveSource } from './source.ts';

export { LiveHub, LIVE_CHANNEL } from './hub.ts';
export type { LiveSource } from './source.ts';
export { createCustodyEventSink, type CustodyEventSink } from './sink.ts';

/**
 * A server's event-stream hub (hub.ts) over the logs its mode has: in
 * sandbox mode the sandbox's own records of status changes and of bank
 * accounts' and contacts' change requests; in both, the stored webhook
 * events and the console's approval events (votes; upstream, proposals and
 * decisions made through the console).
 */
/*
 * Why sandbox mode tails the sandbox's status log rather than feeding the
 * console's webhook path from the sandbox's outbox (measured with
 * `npm run bench -- --only live-updates`, 1,000 streams, PGlite, load 7.7–11.5
 * on 2 shared cores): a prototype that recorded every status change in the
 * outbox and moved it, in process and batched, through the receiver's
 * `normalise` into `console.custody_events` kept the paced figure in target
 * (approval → every client p50 149 ms, p99 423 ms; the tail: 56–122 ms,
 * 182–346 ms) but not the burst of 30 transfers: p50 6.3 s, p99 9.3 s, 8,419
 * deliveries/s, against the tail's 0.7–1.3 s, 2.6–3.6 s, 9,483–14,705/s. The
 * outbox writing every change (a full transaction body) was not the cost
 * (with the tail: p99 182 ms paced, 2.6 s burst); the extra hop was (each
 * event's body read back and parsed, a second write, a second wake). Doing it
 * for real also needs one feeder per database on PostgreSQL (two racing
 * inserts burn ids, and every tail waits 2 s at such a gap), a durable feed
 * position, and pruning of `sandbox.webhook_events`, which today keeps every
 * event forever.
 */
export function createLiveHub(
  options: {
    backend: 'sandbox' | 'upstream';
    database: Pick<DatabaseHandle, 'db' | 'listen'>;
    clock: Clock;
    logger: Logger;
    /** The sandbox organization the console serves; the oldest unless given. */
    orgId?: string;
  } & Omit<LiveHubOptions, 'sources' | 'database' | 'clock' | 'logger'>,
): LiveHub {
  const { backend, orgId, ...rest } = options;
  const { db } = options.database;
  return new LiveHub({
    ...rest,
    // A stream ends with its session (hub.ts): revoked, expired, or its member disabled.
    sessions: {
      live: (ids) => liveSessions(db, ids, options.clock.now()),
      tables: [tableName(sessions), tableName(staff)],
    },
    sources: liveSources(backend, db, orgId),
  });
}

/**
 * The durable logs of changes a mode has, in the order of the stream's SSE id (hub.ts);
 * undefined where a mode has not that log. The notifier tails the same logs
 * (capabilities/notifications/).
 */
export function liveSources(
  backend: 'sandbox' | 'upstream',
  db: Database,
  orgId?: string,
): readonly (LiveSource | undefined)[] {
  return [
    backend === 'sandbox' ? sandboxStatusSource(db, orgId) : undefined,
    custodyEventSource(db),
    backend === 'sandbox' ? sandboxChangeRequestSource(db, orgId) : undefined,
    approvalEventSource(db),
  ];
}
