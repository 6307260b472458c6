import { eq, inArray } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import type { Clock } from '../../../clock.ts';
import type { CustodyBackend, CustodyContext } from '../../../custody/backend.ts';
import type { Database, DatabaseHandle } from '../../../db/client.ts';
import { staff } from '../../../db/schema/console.ts';
import { repeatUntilStopped } from '../../../custody/sandbox/repeat-until-stopped.ts';
import { submitForApproval, type PreApprovalOf } from './submit.ts';
import { heldBecause } from '../../payment-runs/schedule/pre-approval.ts';
import { decisionsOn, initiatorOf, requirementOf } from '../../policies/votes.store.ts';
import { preApprovalLapsed, type DeciderNow } from './pre-approval.ts';
import { recordAudit } from '../../../auth/audit.store.ts';
import { outflowLocks } from '../../policies/outflow-lock.ts';
import { checkPaymentRun } from '../../payment-runs/check.ts';
import { raiseRunProgress } from '../../payment-runs/live.ts';
import { checkSnapshot } from '../../payment-runs/snapshot.ts';
import { loadRun, rowInput, saveCheck, type StoredRun } from '../../payment-runs/store.ts';
import {
  dueSchedules,
  lockSchedule,
  makeOccurrence,
  markHandled,
  unhandledOccurrences,
} from '../../payment-runs/schedule/store.ts';

/**
 * Makes each schedule's occurrences when they fall due, and puts each up for
 * approval like a run a member submits: its rows checked as they stand then
 * (a contact removed or an account no longer approved since the schedule
 * was made is that row's error, and the run then waits for a fix), then
 * judged by the transactions policy and proposed in the inbox as a new held
 * item, on behalf of the schedule's creator (who therefore never approves
 * it). Every step reads its state from the database: a restart takes up an
 * occurrence where it stopped. Time is the injected clock's alone.
 */

export interface RunSchedulerOptions {
  db: Database;
  clock: Clock;
  /** The custody backend behind the scope layer and the policy guard, as a request sees it. */
  backend: CustodyBackend;
  driver: DatabaseHandle['driver'];
  logger: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

export interface RunScheduler {
  /** One pass: answers how many occurrences it made or put up. */
  pass(): Promise<number>;
}

/** The most occurrences one schedule catches up on in a pass (a server down for months). */
const CATCH_UP = 12;

export function createRunScheduler(options: RunSchedulerOptions): RunScheduler {
  const { db, clock, backend, logger } = options;
  const lockVaults = outflowLocks(db, options.driver);

  /** The schedule's creator as a request of theirs would be: their scope, or none at all if gone. */
  async function creatorContext(memberId: string): Promise<CustodyContext | null> {
    const [member] = await db
      .select({ subOrgIds: staff.subOrgIds, disabled: staff.disabled })
      .from(staff)
      .where(eq(staff.id, memberId));
    if (!member || member.disabled) return null;
    return {
      requestId: 'payment-run-scheduler',
      actor: { type: 'STAFF', id: memberId },
      ...(member.subOrgIds ? { scope: { subOrgIds: member.subOrgIds } } : {}),
    };
  }

  /** Why the pre-approval's decisions, counted with their members as they are now, no longer carry it. */
  async function lapsed(
    tx: Database,
    approved: NonNullable<Awaited<ReturnType<typeof requirementOf>>>,
  ): Promise<string | null> {
    const decisions = await decisionsOn(tx, approved.entityId);
    const ids = decisions.filter((d) => d.actor.kind === 'staff').map((d) => d.actor.id);
    const rows = ids.length
      ? await tx
          .select({ id: staff.id, name: staff.name, role: staff.role, disabled: staff.disabled })
          .from(staff)
          .where(inArray(staff.id, ids))
      : [];
    const members = new Map<string, DeciderNow>(rows.map((r) => [r.id, r]));
    return preApprovalLapsed(approved.requirement, initiatorOf(approved), decisions, members);
  }

  /**
   * The schedule's pre-approval, asked in the occurrence's submit under the
   * schedule's row lock (a cap changed at the same moment is seen, or waits):
   * the occurrence is approved by it only while it holds (pre-approval.ts);
   * otherwise it goes to the inbox like any run, and the audit log says why.
   */
  function preApprovalOf(scheduleId: string, stored: StoredRun): PreApprovalOf {
    return async (tx, { requirement, policy }) => {
      const schedule = await lockSchedule(tx, scheduleId);
      const pre = schedule?.preApproval ?? null;
      if (!schedule || !pre) return null;
      const approved = await requirementOf(tx, pre.approvalId);
      const reason =
        heldBecause(pre, approved?.requirement ?? null, policy, {
          rows: stored.rows.map(rowInput),
          totalUsd: stored.run.simulation?.totalUsd ?? null,
          requirement,
        }) ?? (approved ? await lapsed(tx, approved) : null);
      if (reason !== null) {
        await recordAudit(tx, {
          at: clock.now(),
          actorType: 'SYSTEM',
          actorId: null,
          actorName: 'Payment run scheduler',
          action: 'payment_run.pre_approval_held',
          entityType: 'PAYMENT_RUN',
          entityId: stored.run.id,
          summary: `Not pre-approved, put up for approval: ${reason}`,
          outcome: 'success',
        });
        return null;
      }
      return {
        scheduleId,
        approvalId: pre.approvalId,
        approvedAt: pre.approvedAt ?? clock.now().toISOString(),
        approvedBy: pre.approvedBy,
      };
    };
  }

  /** Checks the occurrence's run and proposes it; answers why it could not be, or null. */
  async function putUp(runId: string, scheduleId: string): Promise<string | null> {
    let stored = await loadRun(db, runId);
    if (!stored) return 'the run is gone';
    const ctx = await creatorContext(stored.run.createdById);
    if (!ctx)
      return 'the schedule’s creator can no longer make runs: the run was not put up for approval';
    if (stored.run.status === 'DRAFT' && stored.run.simulation === null) {
      const rows = stored.rows.map(rowInput);
      const snapshot = await checkSnapshot(db, backend, ctx, stored.run, rows);
      await saveCheck(
        db,
        clock.now(),
        runId,
        stored.run.rowsDigest,
        checkPaymentRun(rows, snapshot),
      );
      stored = await loadRun(db, runId);
      if (!stored) return 'the run is gone';
    }
    if (stored.run.status !== 'CHECKED') {
      const rowsWithErrors = new Set(stored.run.errors.map((e) => e.row)).size;
      return stored.run.status === 'DRAFT'
        ? `${rowsWithErrors === 1 ? '1 row needs' : `${rowsWithErrors} rows need`} a fix before the run can be submitted`
        : null;
    }
    try {
      await submitForApproval(
        { db, clock, backend, lockVaults },
        ctx,
        stored,
        preApprovalOf(scheduleId, stored),
      );
      return null;
    } catch (error) {
      // A rule that blocks it, the outflow moved: the run stays checked, for a member to see.
      if (error instanceof ApiError && error.status < 500) return error.message;
      throw error;
    }
  }

  async function pass(): Promise<number> {
    let done = 0;
    for (const id of await dueSchedules(db, clock.now())) {
      try {
        for (let i = 0; i < CATCH_UP && (await makeOccurrence(db, clock.now(), id)); i += 1)
          done += 1;
      } catch (error) {
        logger.warn({ err: error, scheduleId: id }, 'payment run schedule: will try again');
      }
    }
    for (const occurrence of await unhandledOccurrences(db)) {
      try {
        const failure = await putUp(occurrence.runId, occurrence.scheduleId);
        await markHandled(db, clock.now(), occurrence, failure);
        await raiseRunProgress(db, clock, occurrence.runId);
        done += 1;
      } catch (error) {
        // The backend away, a timeout: the occurrence stays unhandled and is taken up next pass.
        logger.warn(
          { err: error, runId: occurrence.runId },
          'payment run occurrence: will try again',
        );
      }
    }
    return done;
  }

  return { pass };
}

/** Passes one after another, `intervalMs` apart, until stopped (server.ts starts it on the sandbox). */
export function startRunScheduler(options: RunSchedulerOptions & { intervalMs?: number }): {
  stop(): Promise<void>;
} {
  const scheduler = createRunScheduler(options);
  return repeatUntilStopped({
    intervalMs: options.intervalMs ?? 1000,
    pass: () => scheduler.pass(),
    failed: (error) => options.logger.error({ err: error }, 'payment run scheduler pass failed'),
    unavailable: (error) =>
      options.logger.warn({ err: error }, 'payment run scheduler: the database is unavailable'),
  });
}
