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
import { cmp, mul, sub } from '#contract/decimal.ts';
import type { PaymentRunOffRamp } from '#contract/payment-runs.ts';
import { rowContext, rowRampBody, rowTransactionBody } from '../../payment-runs/row-transaction.ts';
import { quoteOffRamp, rowCurrency } from '../../payment-runs/snapshot.ts';
import {
  finishRun,
  loadRunAtWork,
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
  /**
   * How far (percent) a fiat row's arrival may fall below what its check quoted and the run
   * was approved on, when its off-ramp is quoted again to be paid: the ramps' rate tolerance.
   */
  rateTolerancePercent: string;
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

type Row = StoredRun['rows'][number];

/** Whether a found transaction is the row's (its externalId was reserved for the executor). */
function isRowsTransaction(tx: Transaction, row: Row): boolean {
  if (tx.externalId !== row.externalId || tx.vaultId !== row.sourceVaultId) return false;
  if (row.kind === 'FIAT') return tx.category === 'OFF_RAMP';
  return (
    tx.category === 'TRANSFER' &&
    tx.asset === row.asset &&
    tx.blockChain === row.blockChain &&
    tx.amount === row.amount
  );
}

/** Why a fiat row's off-ramp may not be paid as approved, or null when it may. */
function offRampRefusal(
  approved: PaymentRunOffRamp,
  now: { toAmount: string; currency: string; paymentMethod: string },
  tolerancePercent: string,
): string | null {
  if (now.currency !== approved.currency || now.paymentMethod !== approved.paymentMethod)
    return `the bank account is now paid in ${now.currency} by ${now.paymentMethod}, not ${approved.currency} by ${approved.paymentMethod} as approved`;
  const floor = sub(approved.toAmount, mul(approved.toAmount, mul(tolerancePercent, '0.01')));
  if (cmp(now.toAmount, floor) < 0)
    return `the off-ramp quoted again lands ${now.toAmount} ${now.currency}, below the ${approved.toAmount} ${approved.currency} approved less the ${tolerancePercent}% tolerance; pay it in a new run`;
  return null;
}

export function createRunExecutor(options: RunExecutorOptions): RunExecutor {
  const { db, clock, judged, inner, logger } = options;
  const perPass = options.rowsPerPass ?? 20;

  /**
   * The member whose approval the run's rows carry: the last to approve it (or, for an
   * occurrence its schedule pre-approved, the schedule's approval), never its creator.
   */
  async function approverOf(stored: StoredRun): Promise<string | null> {
    const decisions = await decisionsOn(db, stored.run.preApproved?.approvalId ?? stored.run.id);
    const approvers = decisions.filter(
      (d) =>
        d.decision === 'APPROVE' &&
        d.actor.kind === 'staff' &&
        d.actor.id !== stored.run.createdById,
    );
    return approvers.at(-1)?.actor.id ?? null;
  }

  /** The row's transaction an earlier attempt made under its externalId, if any. */
  async function madeBefore(row: Row): Promise<Transaction | undefined> {
    const found = await inner.listTransactions(CONSOLE, { externalId: row.externalId, limit: 1 });
    return found.results[0];
  }

  /**
   * A fiat row's off-ramp, made on the run's approval after checking again what it was
   * approved on: the bank account still approved, in the run's sub-organization, paid by the
   * rail and in the currency checked; the off-ramp quoted again (the check's quote has long
   * expired), taking no more than the row's amount and landing no less than approved, less
   * the tolerance. Anything else refuses the row, with the reason; the others go on. Null:
   * refused and recorded.
   */
  async function makeOffRamp(
    stored: StoredRun,
    row: Row,
    ctx: CustodyContext,
    refuse: (why: string) => Promise<null>,
  ): Promise<Transaction | null> {
    const approved = stored.run.simulation?.offRamps?.find((o) => o.row === row.index);
    if (!approved || approved.bankAccountId !== row.bankAccountId)
      return refuse(
        'the run was checked before its fiat rows were quoted: check it again and approve it anew',
      );
    const account = await inner
      .getBankAccount(CONSOLE, approved.bankAccountId)
      .catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      });
    if (!account) return refuse(`bank account "${approved.bankAccountId}" no longer exists`);
    if (account.status !== 'APPROVED')
      return refuse(
        `bank account "${approved.bankAccountId}" is ${account.status ?? 'not approved'} now, not APPROVED`,
      );
    const vault = await inner.getVault(CONSOLE, row.sourceVaultId);
    const accountSubOrg = account.subOrgId ?? null;
    if (
      accountSubOrg !== (vault.subOrgId ?? null) ||
      (stored.run.subOrgId !== null && accountSubOrg !== stored.run.subOrgId)
    )
      return refuse(
        `bank account "${approved.bankAccountId}" is no longer in the run's sub-organization`,
      );
    const currency = rowCurrency(account.paymentMethod);
    const changed = offRampRefusal(
      approved,
      {
        toAmount: approved.toAmount,
        currency: currency ?? 'no currency',
        paymentMethod: account.paymentMethod ?? 'no rail',
      },
      '0',
    );
    if (changed) return refuse(changed);
    const quoted = await quoteOffRamp(judged, ctx, row, account);
    if (!quoted.ok || !quoted.quoteId)
      return refuse(
        `the off-ramp cannot be quoted again: ${quoted.ok ? 'no quote' : quoted.message}`,
      );
    const leaves = quoted.finalFromAmount ?? row.amount;
    if (cmp(leaves, row.amount) > 0)
      return refuse(
        `the off-ramp quoted again takes ${leaves} ${row.asset}, more than the ${row.amount} approved`,
      );
    const moved = offRampRefusal(approved, quoted.quote, options.rateTolerancePercent);
    if (moved) return refuse(moved);
    const body = rowRampBody(row, { quoteId: quoted.quoteId, ...quoted.quote });
    if (!body) return refuse('the row is not a fiat row');
    return judged.createRampTransaction(ctx, body);
  }

  /** Creates the row's transaction, or finds the one an earlier attempt made; records either. */
  async function send(stored: StoredRun, row: Row): Promise<void> {
    const ref = { runId: row.runId, index: row.index, attempt: row.attempt };
    const ctx = rowContext({ type: 'STAFF', id: stored.run.createdById }, ref);
    const refuse = async (why: string) => {
      await recordRowRefused(db, ref, why);
      return null;
    };
    let made: Transaction | null;
    // Found under the row's externalId, made by an earlier attempt, not by this one.
    let found = false;
    try {
      if (row.kind === 'FIAT') {
        // Found first: a crash after the create must not see the row refused by a check made
        // afterwards (its account since revoked), leaving its transaction unrecorded.
        const earlier = await madeBefore(row);
        if (earlier && !isRowsTransaction(earlier, row))
          made = await refuse(
            `A transaction with externalId ${row.externalId} exists and is not this row's`,
          );
        else {
          found = earlier !== undefined;
          made = earlier ?? (await makeOffRamp(stored, row, ctx, refuse));
        }
      } else {
        const body = rowTransactionBody(row);
        made = body ? await judged.createTransaction(ctx, body) : await refuse('not a crypto row');
      }
      if (made === null) return;
    } catch (error) {
      if (error instanceof ApiError && error.code === ERROR_CODES.duplicateExternalId) {
        const first = await madeBefore(row);
        if (!first?.id || !isRowsTransaction(first, row)) {
          await recordRowRefused(
            db,
            ref,
            `A transaction with externalId ${row.externalId} exists and is not this row's`,
          );
          return;
        }
        made = first;
        found = true;
      } else if (refused(error)) {
        await recordRowRefused(db, ref, error.message);
        return;
      } else throw error;
    }
    if (!made.id) throw new Error('the custody backend answered a transaction without an id');
    if (found) {
      // The run's rule on the row's transaction, as the guard froze it at the create: again
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
    }
    await recordRowSent(db, ref, made.id);
  }

  /**
   * A row's transaction waiting for approval: approved as the run was while it executes,
   * declined once it is cancelled; false when the run is paused (it waits) or has no approver.
   */
  async function decide(
    stored: StoredRun,
    transactionId: string,
    approver: string | null,
  ): Promise<boolean> {
    const sending = stored.run.status === 'EXECUTING';
    const declining = stored.run.status === 'CANCELLED';
    if ((!sending && !declining) || !approver) return false;
    const actx: CustodyContext = { actor: { type: 'STAFF', id: approver } };
    const message = await inner.getApprovalMessage(actx, transactionId);
    await inner.decideApproval(actx, message.approvalId, {
      action: sending ? 'approve' : 'reject',
      ...(declining ? { reason: 'The payment run was cancelled' } : {}),
    });
    if (sending) await markSent(db, transactionId, clock.now());
    return true;
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
    if (tx.status === 'PENDING') return decide(stored, row.transactionId, approver);
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

  /**
   * Which of the rows sent may have moved: their transactions' statuses read in one go, and
   * only those waiting for approval or ended are read in full and acted on. A row whose
   * transaction is still on its way is not read each pass. Without such a read (a backend
   * that has none), every sent row is.
   */
  async function moved(rows: readonly Row[]): Promise<Row[]> {
    const sent = rows.filter((r) => r.status === 'SUBMITTED' && r.transactionId);
    if (sent.length === 0 || !inner.transactionStatuses) return sent;
    const statuses = await inner
      .transactionStatuses(
        CONSOLE,
        sent.map((r) => r.transactionId ?? ''),
      )
      .catch((error: unknown) => {
        // The backend away: no row is followed this pass, and none is lost (they stay sent).
        logger.warn({ err: error }, 'payment run rows in flight: will look again');
        return null;
      });
    if (!statuses) return [];
    return sent.filter((r) => {
      const status = statuses.get(r.transactionId ?? '');
      // An id the read did not find is read in full: its own read says why.
      return status === undefined || status === 'PENDING' || isTerminalStatus(status);
    });
  }

  async function pass(): Promise<number> {
    let budget = perPass;
    let done = 0;
    for (const runId of await runsAtWork(db)) {
      const started = await moveRun(db, clock.now(), runId, ['APPROVED'], 'EXECUTING');
      // The rows in flight and the next ones the pace allows, not the whole run.
      const stored = await loadRunAtWork(db, runId, budget);
      if (!stored) continue;
      const approver = await approverOf(stored);
      const before = done;
      const toFollow = new Set(await moved(stored.rows));
      for (const row of stored.rows) {
        try {
          if (row.status === 'SUBMITTED') {
            if (toFollow.has(row) && (await follow(stored, row, approver))) done += 1;
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
