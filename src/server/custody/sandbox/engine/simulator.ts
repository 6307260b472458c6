import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Database } from '../../../db/client.ts';
import { transactions } from '../../../db/schema/sandbox.ts';
import type { Clock } from '../../../clock.ts';
import { isDatabaseUnavailable } from '../../../http/database-errors.ts';
import { advance, type StepConfig } from './steps.ts';

/**
 * The lifecycle simulator. It keeps nothing in memory: each transaction's
 * next move is `next_step_at` in the database, so a restarted server (or a
 * second one on the same PostgreSQL) carries on where the last stopped.
 */

export interface RunConfig extends StepConfig {
  /** Upper bound on steps per call, so one call cannot run forever. */
  maxSteps?: number;
  logger?: Pick<Logger, 'error'>;
}

/** How long a step that threw waits before it is tried again. */
const RETRY_AFTER_MS = 5_000;

/**
 * Advances every transaction whose next step is due, one step per database
 * transaction, until none is due. Returns the number of steps taken.
 * FOR UPDATE SKIP LOCKED lets several servers share the work without two
 * moving the same transaction.
 */
export async function runDueSteps(db: Database, clock: Clock, config: RunConfig): Promise<number> {
  const maxSteps = config.maxSteps ?? 10_000;
  let steps = 0;
  while (steps < maxSteps) {
    const now = clock.now();
    // A plain read first: most polls find nothing due, and an empty locking
    // transaction still counts as a write on PGlite, which would drop every
    // cached read four times a second (db/read-cache.ts).
    if (!(await anyDue(db, now))) break;
    let failedId: string | undefined;
    let moved: boolean;
    try {
      moved = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(transactions)
          .where(and(isNotNull(transactions.nextStepAt), lte(transactions.nextStepAt, now)))
          .orderBy(asc(transactions.nextStepAt), asc(transactions.id))
          .limit(1)
          .for('update', { skipLocked: true });
        if (!row) return false;
        failedId = row.id;
        await advance(tx, row, row.nextStepAt ?? now, config);
        return true;
      });
    } catch (error) {
      // The database going away is no step's fault: the pass ends, and the loop waits for it.
      if (!failedId || isDatabaseUnavailable(error)) throw error;
      // A step that fails would be picked again at once; back it off instead of spinning.
      config.logger?.error({ err: error, transactionId: failedId }, 'lifecycle step failed');
      await db
        .update(transactions)
        .set({ nextStepAt: new Date(now.getTime() + RETRY_AFTER_MS) })
        .where(eq(transactions.id, failedId));
      moved = true;
    }
    if (!moved) break;
    steps += 1;
  }
  return steps;
}

async function anyDue(db: Database, now: Date): Promise<boolean> {
  const [due] = await db
    .select({ id: transactions.id })
    .from(transactions)
    .where(and(isNotNull(transactions.nextStepAt), lte(transactions.nextStepAt, now)))
    .limit(1);
  return due !== undefined;
}

export interface SimulatorOptions extends StepConfig {
  db: Database;
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
 * Polls for due steps until stopped. Nothing a pass throws ends the loop: a
 * failed pass is logged and the next poll comes as usual. While the database
 * is unavailable (stopped, restarting: http/database-errors.ts) the polls
 * back off, doubling up to 10 s, and the outage is logged once, not four
 * times a second; the first pass that succeeds resumes the usual pace.
 */
export function startSimulator(options: SimulatorOptions): RunningSimulator {
  const intervalMs = options.intervalMs ?? 250;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> = Promise.resolve();
  let delay = intervalMs;
  let outage = false;

  const tick = () => {
    pass = runDueSteps(options.db, options.clock, { ...options, logger: options.logger })
      .then(() => {
        outage = false;
        delay = intervalMs;
      })
      .catch((error: unknown) => {
        if (!isDatabaseUnavailable(error)) {
          delay = intervalMs;
          options.logger.error({ err: error }, 'lifecycle simulator pass failed');
          return;
        }
        if (!outage)
          options.logger.error(
            { err: error },
            'lifecycle simulator: the database is unavailable; retrying with back-off',
          );
        outage = true;
        delay = Math.min(delay * 2, MAX_OUTAGE_BACKOFF_MS);
      })
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, delay);
      });
  };
  timer = setTimeout(tick, 0);

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await pass;
    },
  };
}
