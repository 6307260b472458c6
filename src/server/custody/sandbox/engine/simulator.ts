import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../../../db/client.ts';
import { transactions } from '../../../db/schema/sandbox.ts';
import type { Clock } from '../../../clock.ts';
import { isDatabaseUnavailable } from '../../../http/database-errors.ts';
import { repeatUntilStopped } from '../repeat-until-stopped.ts';
import { payStakingRewards } from './staking-rewards.ts';
import { advance, type StepConfig } from './steps.ts';
import { deferStatusEvents } from './transitions.ts';

/**
 * The lifecycle simulator. It keeps nothing in memory: each transaction's
 * next move is `next_step_at` in the database, so a restarted server (or a
 * second one on the same PostgreSQL) carries on where the last stopped.
 */

export interface RunConfig extends StepConfig {
  /** Upper bound on steps per call, so one call cannot run forever. */
  maxSteps?: number;
  logger?: Pick<Logger, 'error'>;
  /** How many steps one database transaction takes (default: one). */
  batch?: BatchSize;
  /**
   * How many transactions run at once (default: one). PostgreSQL serves
   * several connections; PGlite has one, so there it stays one.
   */
  lanes?: number;
  /**
   * Awaited before each batch begins: on PGlite, until the pages being
   * rendered are sent (db/foreground.ts), since a batch holds the one
   * connection their reads need.
   */
  beforeBatch?: () => Promise<void>;
}

/**
 * How many due steps a database transaction takes: told how long each took,
 * and how long the first of its steps had been due (`overdueMs`).
 */
export interface BatchSize {
  next(): number;
  took(steps: number, ms: number, overdueMs?: number): void;
}

const ONE_STEP: BatchSize = { next: () => 1, took: () => undefined };

/**
 * Batches sized to what the store sustains: as many steps as fit in about
 * `targetMs` at the pace the last full batches went, between 1 and `max`.
 * For PGlite, where a batch is one commit instead of one per step, and where
 * every other statement waits while it runs (one connection): `targetMs`
 * bounds what a request waits behind the simulator. While the simulator is
 * behind, batches aim longer, in proportion to how long the batch's first
 * step had been due (one `targetMs` a `behindMs`, at most `maxFactor` times
 * `targetMs`): with requests queued for PGlite's one connection each batch
 * waits its turn behind them, so a batch's length is the simulator's share of
 * the thread. Caught up, it shrinks back the same way.
 */
export function adaptiveBatch(
  targetMs = 25,
  max = 64,
  { behindMs = 1_000, maxFactor = 4 } = {},
): BatchSize {
  let size = 1;
  return {
    next: () => size,
    took(steps, ms, overdueMs = 0) {
      // A batch short of its size found nothing more due: it says nothing of the pace.
      if (steps < size || steps === 0) return;
      const factor = Math.min(maxFactor, Math.max(1, overdueMs / behindMs));
      const fits = Math.floor((targetMs * factor) / Math.max(ms / steps, 0.01));
      // Half way there each time: one slow batch (a checkpoint) does not collapse it.
      size = Math.min(max, Math.max(1, Math.round((size + fits) / 2)));
    },
  };
}

/** How long a step that threw waits before it is tried again. */
const RETRY_AFTER_MS = 5_000;

const dueAt = (now: Date) =>
  and(isNotNull(transactions.nextStepAt), lte(transactions.nextStepAt, now));

/**
 * Advances every transaction whose next step is due, earliest due first,
 * until none is due. Returns the number of steps taken. Each database
 * transaction takes a batch of due steps (`config.batch`, one by default),
 * and `config.lanes` of them run at once. FOR UPDATE SKIP LOCKED lets lanes
 * and several servers share the work without two moving the same
 * transaction. A batch that fails is rolled back and its steps taken again
 * one per transaction, so only the step that throws is put off.
 */
export async function runDueSteps(db: Database, clock: Clock, config: RunConfig): Promise<number> {
  const maxSteps = config.maxSteps ?? 10_000;
  const batch = config.batch ?? ONE_STEP;
  let steps = 0;
  // Steps to take one per transaction, after a batch of them failed.
  let isolate = 0;

  const lane = async () => {
    // A plain read first: most polls find nothing due, and an empty locking
    // transaction still counts as a write on PGlite, which would drop every
    // cached read four times a second (db/read-cache.ts).
    if (!(await anyDue(db, clock.now()))) return;
    while (steps < maxSteps) {
      await config.beforeBatch?.();
      const now = clock.now();
      const limit = Math.min(isolate > 0 ? 1 : batch.next(), maxSteps - steps);
      let picked: string[] = [];
      let started = 0;
      let overdueMs = 0;
      try {
        await db.transaction(async (tx) => {
          // From inside: the wait for the transaction to begin (PGlite's one connection busy
          // with a request) is no measure of how many steps fit.
          started = performance.now();
          const rows = await tx
            .select()
            .from(transactions)
            .where(dueAt(now))
            .orderBy(asc(transactions.nextStepAt), asc(transactions.id))
            .limit(limit)
            .for('update', { skipLocked: true });
          picked = rows.map((r) => r.id);
          overdueMs = now.getTime() - (rows[0]?.nextStepAt ?? now).getTime();
          // The batch's status events go in one statement at its end (transitions.ts).
          const events = deferStatusEvents(tx);
          for (const row of rows) await advance(tx, row, row.nextStepAt ?? now, config);
          await events.write();
        });
        batch.took(picked.length, performance.now() - started, overdueMs);
      } catch (error) {
        // The database going away is no step's fault: the pass ends, and the loop waits for it.
        const [failedId, ...others] = picked;
        if (!failedId || isDatabaseUnavailable(error)) throw error;
        if (others.length > 0) {
          isolate = picked.length;
          continue;
        }
        // A step that fails would be picked again at once; back it off instead of spinning.
        config.logger?.error({ err: error, transactionId: failedId }, 'lifecycle step failed');
        await db
          .update(transactions)
          .set({ nextStepAt: new Date(now.getTime() + RETRY_AFTER_MS) })
          .where(eq(transactions.id, failedId));
      }
      steps += picked.length;
      isolate = Math.max(0, isolate - picked.length);
      // Short of its limit: nothing more was due (or other lanes hold it).
      if (picked.length < limit) return;
      // Let what waits on the database (a request) in before the next batch.
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const lanes = await Promise.allSettled(Array.from({ length: config.lanes ?? 1 }, lane));
  const failed = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
  if (failed) throw failed.reason;
  return steps;
}

async function anyDue(db: Database, now: Date): Promise<boolean> {
  const [due] = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(dueAt(now))
    .limit(1);
  return due !== undefined;
}

/** How far the simulator is behind: what an operator reads in /readyz. */
export interface SimulatorLag {
  /** Steps due now and not yet taken (counted up to LAG_COUNT_LIMIT). */
  due: number;
  /** How long the oldest of them has been due, in seconds (0 when none is). */
  oldestDueSeconds: number;
}

/** The most due steps counted: the answer stays cheap however far behind it is. */
export const LAG_COUNT_LIMIT = 10_000;

/**
 * The simulator's lag, read from the database: every server's simulator
 * shares one schedule (`next_step_at`), so this is the lag of all of them.
 * Its partial index keeps both the count and the minimum to an index range.
 */
export async function simulatorLag(db: Database, now: Date): Promise<SimulatorLag> {
  const due = dueAt(now);
  const [oldest] = await db
    .select({ at: transactions.nextStepAt })
    .from(transactions)
    .where(due)
    .orderBy(asc(transactions.nextStepAt))
    .limit(1);
  if (!oldest?.at) return { due: 0, oldestDueSeconds: 0 };
  const dueRows = db
    .select({ id: transactions.id })
    .from(transactions)
    .where(due)
    .limit(LAG_COUNT_LIMIT)
    .as('due_rows');
  const [counted] = await db.select({ n: sql<number>`count(*)::int` }).from(dueRows);
  return {
    // eslint-disable-next-line no-restricted-syntax -- a count of due transactions
    due: Number(counted?.n ?? 0),
    oldestDueSeconds: Math.max(0, (now.getTime() - oldest.at.getTime()) / 1000),
  };
}

export interface SimulatorOptions extends StepConfig {
  db: Database;
  /** Steps per database transaction and transactions at once (runDueSteps). */
  batch?: BatchSize;
  lanes?: number;
  /** What each batch waits for before it begins (runDueSteps). */
  beforeBatch?: () => Promise<void>;
  clock: Clock;
  logger: Pick<Logger, 'error'>;
  /** Real time between polls. */
  intervalMs?: number;
}

export interface RunningSimulator {
  /** Stops polling and waits for the pass in progress to finish. */
  stop(): Promise<void>;
}

/** The longest wait between polls while the database is unavailable. */
const MAX_OUTAGE_BACKOFF_MS = 10_000;

/**
 * Polls for due steps and staking rewards until stopped. Nothing a pass throws ends the loop: a
 * failed pass is logged and the next poll comes as usual. While the database
 * is unavailable (stopped, restarting: http/database-errors.ts) the polls
 * back off, doubling up to 10 s, and the outage is logged once, not four
 * times a second; the first pass that succeeds resumes the usual pace.
 */
export function startSimulator(options: SimulatorOptions): RunningSimulator {
  return repeatUntilStopped({
    intervalMs: options.intervalMs ?? 250,
    maxOutageBackoffMs: MAX_OUTAGE_BACKOFF_MS,
    pass: async () => {
      await runDueSteps(options.db, options.clock, { ...options, logger: options.logger });
      // Staking rewards fall due on the same clock (staking-rewards.ts).
      await payStakingRewards(options.db, options.clock.now());
    },
    failed: (error) => options.logger.error({ err: error }, 'lifecycle simulator pass failed'),
    unavailable: (error) =>
      options.logger.error(
        { err: error },
        'lifecycle simulator: the database is unavailable; retrying with back-off',
      ),
  });
}
