import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { isTerminalStatus } from '#contract/enums.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { Clock } from '../../../clock.ts';
import type { CustodyBackend, CustodyContext } from '../../../custody/backend.ts';
import type { Database } from '../../../db/client.ts';
import {
  decisionsOn,
  freezeRequirement,
  initiatorOf,
  markSent,
  requirementOf,
} from '../../policies/votes.store.ts';
import { raiseRunProgress } from '../../payment-runs/live.ts';
import { rowContext, rowTransactionBody } from '../../payment-runs/row-transaction.ts';
import {
  finishRun,
  loadRun,
  moveRun,
  recordRowEnded,
  recordRowRefused,
  recordRowSent,
  runsAtWork,
  type StoredRun,
} from '../../payment-runs/store.ts';

/**
 * Executes approved payment runs, each row exactly once: its transaction is
 * created under the row's externalId (derived from the run, the row and the
 * attempt), and the custody API refuses a second create with the same one, so
 * a pass that crashed after the create and before it was recorded finds the
 * first transaction instead of paying again. Every step reads its state from
 * the database, so a restart resumes where the last run stopped.
 *
 * Rows are created through the policy guard in a context only this module
 * makes (payment-runs/row-transaction.ts): the guard lets them through on the
 * run's approval, and the executor then sends the custody backend the
 * approval of the member whose vote approved the run (never its creator: the
 * custody side's four-eyes holds too). A paused run sends nothing more; a
 * cancelled one sends nothing more and declines what waits; a failed or
 * refused row is recorded and the others go on.
 */

export interface RunExecutorOptions {
  db: Database;
  clock: Clock;
  /** The custody backend behind the policy guard: rows are created through it. */
  judged: CustodyBackend;
  /** The custody backend itself: reads, and the run's approval of each row's transaction. */
  inner: CustodyBackend;
  logger: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Rows created per pass, over all runs: the pace the chain and the provider allow. */
  rowsPerPass?: number;
}

export interface RunExecutor {
  /** One pass: answers how many rows it created or moved on. */
  pass(): Promise<number>;
}

/** The console's own view of the organization: the executor reads every run's transactions. */
const CONSOLE: CustodyContext = { requestId: 'payment-run-executor' };

/** A refusal (4xx other than a timeout or a rate limit): the create made nothing, for sure. */
function refused(error: unknown): error is ApiError {
  return (
    error instanceof ApiError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 408 &&
    error.status !== 429
  );
}

/** Whether a found transaction is the row's (its externalId was reserved for the executor). */
function isRowsTransaction(tx: Transaction, body: ReturnType<typeof rowTransactionBody>): boolean {
  if (!body || body.category !== 'TRANSFER') return false;
  return (
    tx.externalId === body.externalId &&
    tx.vaultId === body.source.id &&
    tx.asset === body.asset &&
    tx.blockChain === body.blockChain &&
    tx.amount === body.amount
  );
}

export function createRunExecutor(options: RunExecutorOptions): RunExecutor {
  const { db, clock, judged, inner, logger } = options;
  const perPass = options.rowsPerPass ?? 20;

  /** The member whose approval the run's rows carry: the last to approve it, not its creator. */
  async function approverOf(stored: StoredRun): Promise<string | null> {
    const decisions = await decisionsOn(db, stored.run.id);
    const approvers = decisions.filter(
      (d) =>
        d.decision === 'APPROVE' &&
        d.actor.kind === 'staff' &&
        d.actor.id !== stored.run.createdById,
    );
    return approvers.at(-1)?.actor.id ?? null;
  }

  /** Creates the row's transaction, or finds the one an earlier attempt made; records either. */
  async function send(stored: StoredRun, row: StoredRun['rows'][number]): Promise<void> {
    const ref = { runId: row.runId, index: row.index, attempt: row.attempt };
    const body = rowTransactionBody(row);
    if (!body) {
      await recordRowRefused(db, ref, 'Fiat rows are not executed yet: pay it as an off-ramp');
      return;
    }
    const ctx = rowContext({ type: 'STAFF', id: stored.run.createdById }, ref);
    let made: Transaction;
    try {
      made = await judged.createTransaction(ctx, body);
    } catch (error) {
      if (error instanceof ApiError && error.code === ERROR_CODES.duplicateExternalId) {
        const found = await inner.listTransactions(CONSOLE, {
          externalId: row.externalId,
          limit: 1,
        });
        const first = found.results[0];
        if (!first?.id || !isRowsTransaction(first, body)) {
          await recordRowRefused(
            db,
            ref,
            `A transaction with externalId ${row.externalId} exists and is not this row's`,
          );
          return;
        }
        made = first;
      } else if (refused(error)) {
        await recordRowRefused(db, ref, error.message);
        return;
      } else throw error;
    }
    if (!made.id) throw new Error('the custody backend answered a transaction without an id');
    // The run's rule on the row's transaction, as the guard froze it at the create; again here
    // for one found after a crash between the create and that write (a no-op otherwise).
    const frozen = await requirementOf(db, stored.run.id);
    if (frozen)
      await freezeRequirement(
        db,
        {
          entityId: made.id,
          entityType: 'TRANSACTION',
          requirement: frozen.requirement,
          initiator: initiatorOf(frozen),
        },
        clock.now(),
      );
    await recordRowSent(db, ref, made.id);
  }

  /** A sent row's transaction: approved as the run was while it waits, recorded once it ends. */
  async function follow(
    stored: StoredRun,
    row: StoredRun['rows'][number],
    approver: string | null,
  ): Promise<boolean> {
    if (!row.transactionId) return false;
    const ref = { runId: row.runId, index: row.index, attempt: row.attempt };
    const tx = await inner.getTransaction(CONSOLE, row.transactionId);
    if (tx.status === 'PENDING') {
      const sending = stored.run.status === 'EXECUTING';
      const declining = stored.run.status === 'CANCELLED';
      if ((!sending && !declining) || !approver) return false;
      const actx: CustodyContext = { actor: { type: 'STAFF', id: approver } };
      const message = await inner.getApprovalMessage(actx, row.transactionId);
      await inner.decideApproval(actx, message.approvalId, {
        action: sending ? 'approve' : 'reject',
        ...(declining ? { reason: 'The payment run was cancelled' } : {}),
      });
      if (sending) await markSent(db, row.transactionId, clock.now());
      return true;
    }
    if (!isTerminalStatus(tx.status)) return false;
    const completed = tx.status === 'COMPLETED';
    await recordRowEnded(db, ref, {
      status: completed ? 'COMPLETED' : 'FAILED',
      failure: completed ? null : (tx.error ?? `The transaction was ${tx.status}`),
      txHash: tx.txHash ?? null,
      feeAmount: tx.fees?.amount ?? null,
      feeAsset: tx.fees?.asset ?? null,
      feeUsd: tx.fees?.amountInFiat ?? null,
      completedAt: tx.updatedAt ? new Date(tx.updatedAt) : clock.now(),
    });
    return true;
  }

  async function pass(): Promise<number> {
    let budget = perPass;
    let done = 0;
    for (const runId of await runsAtWork(db)) {
      const started = await moveRun(db, clock.now(), runId, ['APPROVED'], 'EXECUTING');
      const stored = await loadRun(db, runId);
      if (!stored) continue;
      const approver = await approverOf(stored);
      const before = done;
      for (const row of stored.rows) {
        try {
          if (row.status === 'SUBMITTED') {
            if (await follow(stored, row, approver)) done += 1;
          } else if (row.status === 'PENDING' && stored.run.status === 'EXECUTING' && budget > 0) {
            budget -= 1;
            await send(stored, row);
            done += 1;
          }
        } catch (error) {
          // One row's trouble (a timeout, the backend away) never holds the others: next pass.
          logger.warn({ err: error, runId, row: row.index }, 'payment run row: will try again');
        }
      }
      await finishRun(db, clock.now(), runId);
      // One event per run per pass that moved it: open tabs refetch the run once.
      if (started || done > before)
        await raiseRunProgress(db, clock, runId).catch((error: unknown) =>
          logger.warn({ err: error, runId }, 'payment run progress event not raised'),
        );
    }
    return done;
  }

  return { pass };
}

/** Runs passes one after another, `intervalMs` apart, until stopped (server.ts starts it). */
export function startRunExecutor(options: RunExecutorOptions & { intervalMs?: number }): {
  stop(): Promise<void>;
} {
  const executor = createRunExecutor(options);
  const intervalMs = options.intervalMs ?? 1000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();
  const tick = () => {
    current = executor
      .pass()
      .then(
        () => undefined,
        (error: unknown) =>
          options.logger.error({ err: error }, 'payment run executor pass failed'),
      )
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs);
      });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
