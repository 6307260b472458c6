import { and, eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { SignatureEncoding } from '#contract/webhooks.ts';
import type { Clock } from '../../../clock.ts';
import type { Database } from '../../../db/client.ts';
import { declaredWrite } from '../../../db/declared-writes.ts';
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '../../../db/schema/sandbox.ts';
import { repeatUntilStopped } from '../../../custody/sandbox/repeat-until-stopped.ts';
import { tableName } from '../../../db/read-cache.ts';
import { startWokenLoop } from '../../../woken-loop.ts';
import type { TargetPolicy } from '../targets.ts';
import { postWebhook, signedWebhook } from './post.ts';

/**
 * Sends the outbox's deliveries (outbox.ts). Beside the lifecycle simulator,
 * never inside it: a step only writes its events, so a slow or dead
 * endpoint cannot hold a lifecycle up. Each poll claims due deliveries in
 * the database (FOR UPDATE SKIP LOCKED, then `next_attempt_at` pushed past
 * the attempt: a lease), so several servers on one PostgreSQL never send
 * one attempt twice, and a server that dies mid-attempt leaves a claim that
 * runs out. Claims are bounded: `concurrency` attempts at once in all, and
 * `perEndpoint` per endpoint, so one slow endpoint holds only its own
 * slots. A transaction's deliveries to an endpoint go in order: one waits
 * while an earlier one of the same transaction is still PENDING (claimed or
 * retrying). Each attempt has a deadline (`timeoutMs`), follows no
 * redirect, and connects only to an address the target policy allows
 * (targets.ts). A failed attempt is retried after a growing back-off (30 s,
 * doubling, at most an hour) until a day after the event; then the delivery
 * is FAILED, and may be resent.
 */

export interface DispatcherOptions {
  db: Database;
  clock: Clock;
  logger: Pick<Logger, 'warn' | 'error'>;
  targets: TargetPolicy;
  /** Each attempt's deadline, connection to last byte (WEBHOOK_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Attempts under way at once, in all. */
  concurrency?: number;
  /** Attempts under way at once to one endpoint. */
  perEndpoint?: number;
  /** Called as each attempt ends (settled or not): what the running dispatcher wakes on. */
  settled?: () => void;
}

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
const FIRST_RETRY_MS = 30_000;
const LONGEST_RETRY_MS = 60 * 60 * 1000;
/** What a claim adds to the deadline: the attempt's settling write, a slow database. */
const LEASE_MARGIN_MS = 60_000;

/** How long after its `attempts`-th failure a delivery is tried again. */
export function retryDelayMs(attempts: number): number {
  return Math.min(LONGEST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
}

/** A delivery claimed for an attempt, with what the attempt sends. */
interface Claimed {
  id: number;
  attempts: number;
  endpointId: string;
  giveUpAt: Date;
  url: string;
  key: string;
  encoding: SignatureEncoding;
  eventId: string;
  event: string;
  data: Record<string, unknown>;
}

/** An attempt's end, as its delivery's row is to be written. */
interface Outcome {
  id: number;
  attempts: number;
  state: 'DELIVERED' | 'FAILED' | 'PENDING';
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastLatencyMs: number;
  lastError: string | null;
  deliveredAt: Date | null;
}

/** A claimed row as the claim's statement answers it. */
type ClaimedRow = {
  id: string | number;
  attempts: number;
  give_up_ms: number | string;
  url: string;
  verification_key: string;
  signature_encoding: string;
  event_id: string;
  event: string;
  data: unknown;
};

export interface WebhookDispatcher {
  /** Claims what is due (within the free slots) and starts sending it; answers how many it started. */
  poll(): Promise<number>;
  /** Resolves once no attempt is under way (to the endpoints `only` accepts, when given). */
  idle(only?: (endpointId: string) => boolean): Promise<void>;
}

export function createWebhookDispatcher(options: DispatcherOptions): WebhookDispatcher {
  const { db, clock, logger, targets } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const concurrency = options.concurrency ?? 16;
  const perEndpoint = options.perEndpoint ?? 4;
  const running = new Map<number, { endpointId: string; done: Promise<void> }>();
  const byEndpoint = new Map<string, number>();

  async function claim(endpointId: string, limit: number, now: Date): Promise<Claimed[]> {
    const lease = new Date(now.getTime() + timeoutMs + LEASE_MARGIN_MS);
    const mine = [...running.keys()];
    // Written by hand (a claim in one statement, skip locked): it declares the table it updates.
    // The claimed rows come back with what their attempts send, so an attempt reads nothing more.
    const result = await declaredWrite(db, [webhookDeliveries], () =>
      db.execute<ClaimedRow>(sql`
      with due as (
        select d.id from ${webhookDeliveries} d
        where d.endpoint_id = ${endpointId}
          and d.state = 'PENDING'
          and d.next_attempt_at <= ${now.toISOString()}::timestamptz
          ${
            mine.length > 0
              ? sql`and d.id not in (${sql.join(
                  mine.map((id) => sql`${id}`),
                  sql`, `,
                )})`
              : sql``
          }
          and not exists (
            select 1 from ${webhookDeliveries} p
            where p.endpoint_id = d.endpoint_id and p.transaction_id = d.transaction_id
              and p.state = 'PENDING' and p.id < d.id)
        order by d.next_attempt_at, d.id
        limit ${limit}
        for update of d skip locked),
      claimed as (
        update ${webhookDeliveries} w
        set next_attempt_at = ${lease.toISOString()}::timestamptz,
            attempts = w.attempts + 1,
            last_attempt_at = ${now.toISOString()}::timestamptz
        from due where w.id = due.id
        returning w.id, w.attempts, w.event_seq, w.give_up_at)
      select c.id, c.attempts,
        (extract(epoch from c.give_up_at) * 1000)::float8 as give_up_ms,
        e.url, e.verification_key, e.signature_encoding,
        v.event_id, v.event, v.data
      from claimed c
      join ${webhookEndpoints} e on e.id = ${endpointId}
      join ${webhookEvents} v on v.seq = c.event_seq
      order by c.id`),
    );
    // node-postgres answers {rows}, PGlite's driver the rows themselves.
    const rows = Array.isArray(result)
      ? (result as ClaimedRow[])
      : (result as { rows: ClaimedRow[] }).rows;
    return rows.map((r) => ({
      // eslint-disable-next-line no-restricted-syntax -- a delivery's row id and attempt count
      id: Number(r.id),
      // eslint-disable-next-line no-restricted-syntax -- an attempt count
      attempts: Number(r.attempts),
      endpointId,
      // eslint-disable-next-line no-restricted-syntax -- milliseconds since the epoch
      giveUpAt: new Date(Number(r.give_up_ms)),
      url: r.url,
      key: r.verification_key,
      encoding: r.signature_encoding as SignatureEncoding,
      eventId: r.event_id,
      event: r.event,
      data: (typeof r.data === 'string' ? JSON.parse(r.data) : r.data) as Record<string, unknown>,
    }));
  }

  /**
   * Attempts that have ended, written together by the next pass (or `idle`)
   * before it claims anything. One statement per attempt, beside the pass's
   * read and claim, was the dispatcher's share of PGlite's one thread at ten
   * transfers a second (six deliveries each), which the simulator and the
   * API share: a pass now writes what ended since the last in one. Until it
   * is written a delivery stays PENDING under its claim, so nothing is sent
   * twice and its transaction's next delivery waits for it; an outcome lost
   * with its server is an attempt whose claim runs out and is made again.
   */
  const ended: Outcome[] = [];

  async function attempt(claimed: Claimed): Promise<void> {
    const { body, headers } = signedWebhook(claimed, clock.now());
    const outcome = await postWebhook(claimed.url, body, headers, { targets, timeoutMs });
    const now = clock.now();
    const delivered = outcome.error === null;
    const givingUp = !delivered && now.getTime() >= claimed.giveUpAt.getTime();
    ended.push({
      id: claimed.id,
      attempts: claimed.attempts,
      state: delivered ? 'DELIVERED' : givingUp ? 'FAILED' : 'PENDING',
      nextAttemptAt:
        delivered || givingUp ? null : new Date(now.getTime() + retryDelayMs(claimed.attempts)),
      lastStatusCode: outcome.statusCode,
      lastLatencyMs: Math.round(outcome.latencyMs),
      lastError: outcome.error,
      deliveredAt: delivered ? now : null,
    });
  }

  async function writeEnded(): Promise<void> {
    if (ended.length === 0) return;
    const batch = ended.splice(0);
    const iso = (at: Date | null) => (at ? at.toISOString() : null);
    const rows = batch.map(
      (o) =>
        sql`(${o.id}::bigint, ${o.attempts}::int, ${o.state}::text, ${iso(o.nextAttemptAt)}::timestamptz, ${o.lastStatusCode}::int, ${o.lastLatencyMs}::int, ${o.lastError}::text, ${iso(o.deliveredAt)}::timestamptz)`,
    );
    try {
      await declaredWrite(db, [webhookDeliveries], () =>
        db.execute(sql`
        update ${webhookDeliveries} w
        set state = o.state,
            next_attempt_at = o.next_attempt_at,
            last_status_code = o.last_status_code,
            last_latency_ms = o.last_latency_ms,
            last_error = o.last_error,
            delivered_at = coalesce(o.delivered_at, w.delivered_at)
        from (values ${sql.join(rows, sql`, `)})
          as o(id, attempts, state, next_attempt_at, last_status_code, last_latency_ms, last_error, delivered_at)
        -- Only this claim's: a claim that ran out and was taken again is the new holder's.
        where w.id = o.id and w.attempts = o.attempts and w.state = 'PENDING'`),
      );
    } catch (error) {
      // Kept for the next pass; a claim that runs out meanwhile makes its outcome stale.
      ended.unshift(...batch);
      throw error;
    }
  }

  function start(claimed: Claimed) {
    byEndpoint.set(claimed.endpointId, (byEndpoint.get(claimed.endpointId) ?? 0) + 1);
    const run = attempt(claimed)
      .catch((error: unknown) => {
        // The claim runs out and the delivery is tried again: at least once, never lost.
        logger.error(
          { err: error, deliveryId: claimed.id },
          'webhook delivery could not be settled',
        );
      })
      .finally(() => {
        running.delete(claimed.id);
        const left = (byEndpoint.get(claimed.endpointId) ?? 1) - 1;
        if (left > 0) byEndpoint.set(claimed.endpointId, left);
        else byEndpoint.delete(claimed.endpointId);
        // A slot is free, and the transaction's next delivery may go now.
        options.settled?.();
      });
    running.set(claimed.id, { endpointId: claimed.endpointId, done: run });
  }

  return {
    async poll() {
      await writeEnded();
      const now = clock.now();
      // A plain read first: most polls find nothing due.
      const endpoints = await db
        .selectDistinct({ id: webhookDeliveries.endpointId })
        .from(webhookDeliveries)
        .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
        .where(
          and(
            eq(webhookDeliveries.state, 'PENDING'),
            sql`${webhookDeliveries.nextAttemptAt} <= ${now.toISOString()}::timestamptz`,
            eq(webhookEndpoints.enabled, true),
          ),
        )
        .limit(100);
      let started = 0;
      for (const { id } of endpoints) {
        const free = Math.min(concurrency - running.size, perEndpoint - (byEndpoint.get(id) ?? 0));
        if (concurrency - running.size <= 0) break;
        if (free <= 0) continue;
        for (const claimed of await claim(id, free, now)) {
          start(claimed);
          started += 1;
        }
      }
      return started;
    },
    async idle(only) {
      const waiting = () =>
        [...running.values()].filter((r) => !only || only(r.endpointId)).map((r) => r.done);
      for (let left = waiting(); left.length > 0; left = waiting()) await Promise.all(left);
      await writeEnded();
    },
  };
}

export interface RunningDispatcher {
  /** Stops claiming and waits for the attempts under way (each within its deadline). */
  stop(): Promise<void>;
}

/** Channel a trigger on `sandbox.webhook_events` NOTIFYs at the commit of new events (PostgreSQL). */
export const WEBHOOKS_CHANNEL = 'sandbox_webhooks';

export interface RunningDispatcherOptions extends DispatcherOptions {
  /**
   * The safety-net pass: retries that fall due, claims that ran out, resends,
   * a notification lost with its connection. Not how new events are found.
   */
  intervalMs?: number;
  /**
   * PostgreSQL (DatabaseHandle.listen): new events are announced on
   * WEBHOOKS_CHANNEL by a trigger, from any server, the simulator's thread or
   * the CLI. Absent on PGlite, where the outbox's write count is watched.
   */
  listen?: (channel: string, notify: () => void, lost: () => void) => Promise<() => Promise<void>>;
  /** PGlite: how often the outbox's write count is looked at (a shared counter: no query). */
  watchMs?: number;
  /**
   * 'poll' runs the dispatcher as it once ran: a pass every `intervalMs`, woken
   * by nothing. Kept only so the bench can measure the difference.
   */
  mode?: 'wake' | 'poll';
}

/**
 * Sends as fast as the endpoints answer: a pass claims what is due within the
 * free slots, and another pass follows at once whenever something may have
 * become due: an event written to the outbox (PostgreSQL: NOTIFY at its
 * commit; PGlite: the outbox table's write count, which the database's
 * thread, where the simulator runs, shares with this one), or an attempt
 * ending (its slot is free, its transaction's next delivery may go). Passes
 * never overlap: a wake during one asks for one more after it. Every
 * `intervalMs` a pass runs anyway. A failed pass is logged; an outage once.
 */
export function startWebhookDispatcher(options: RunningDispatcherOptions): RunningDispatcher {
  const intervalMs = options.intervalMs ?? 500;
  if (options.mode === 'poll') {
    const dispatcher = createWebhookDispatcher(options);
    const loop = repeatUntilStopped({
      intervalMs,
      pass: () => dispatcher.poll(),
      failed: (error) => options.logger.error({ err: error }, 'webhook dispatcher poll failed'),
      unavailable: (error) =>
        options.logger.warn({ err: error }, 'webhooks: the database is unavailable'),
    });
    return {
      async stop() {
        await loop.stop();
        await dispatcher.idle();
      },
    };
  }

  const dispatcher = createWebhookDispatcher({ ...options, settled: () => loop.wake() });
  const loop = startWokenLoop({
    name: 'webhooks',
    pass: () => dispatcher.poll(),
    db: options.db,
    logger: options.logger,
    intervalMs,
    listen: options.listen,
    channel: WEBHOOKS_CHANNEL,
    // The outbox's write count: it moves with every event written, in either thread.
    tables: [tableName(webhookEvents)],
    watchMs: options.watchMs ?? 10,
  });
  return {
    async stop() {
      await loop.stop();
      await dispatcher.idle();
    },
  };
}
