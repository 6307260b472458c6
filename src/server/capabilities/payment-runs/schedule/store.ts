import { randomUUID } from 'node:crypto';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import {
  describeTiming,
  occurrencesAfter,
  type PaymentRunSchedule,
  type SchedulePreApproval,
  type ScheduleStatus,
  type ScheduleTiming,
} from '#contract/payment-run-schedules.ts';
import type { Database } from '../../../db/client.ts';
import {
  paymentRunOccurrences,
  paymentRunRows,
  paymentRunSchedules,
  paymentRuns,
} from '../../../db/schema/console.ts';
import type { PaymentRowInput } from '#contract/payment-runs.ts';
import { createRun, rowInput } from '../store.ts';

/**
 * Payment runs' schedules and their occurrences in the console's database.
 * An occurrence is made once: its key is the schedule and its due time, its
 * run's id is derived from both, and it is made and the schedule moved on in
 * one transaction under the schedule's row lock, so neither a restart nor a
 * second server makes it twice.
 */

type ScheduleRecord = typeof paymentRunSchedules.$inferSelect;
type OccurrenceRecord = typeof paymentRunOccurrences.$inferSelect;

const notFound = (id: string) =>
  new ApiError(404, ERROR_CODES.notFound, `No payment run schedule with id "${id}"`);

/** The run id of the schedule's occurrence due at `dueAt`: the same on every server, every try. */
export function occurrenceRunId(scheduleId: string, dueAt: Date): string {
  const hex = bytesToHex(sha256(utf8ToBytes(`${scheduleId}|${dueAt.toISOString()}`)));
  // Shaped as a UUID (version 8: made by this rule), as every other run's id is.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The checked run `runId` becomes a schedule of its rows: the draft is
 * removed in the same transaction (it was never submitted, so nothing voted
 * on it), so it can never also be submitted and paid now. Null when the run
 * is not (or no longer) a checked run without errors.
 */
export async function scheduleRun(
  db: Database,
  now: Date,
  runId: string,
  timing: ScheduleTiming,
  firstDueAt: Date,
  /**
   * The cap to put up for approval with it, made from the rows as they are
   * scheduled (read here, under the run's lock), and what to do with it in
   * the same transaction (freeze its rule, raise it in the inbox).
   */
  preApproval?: {
    make(rows: PaymentRowInput[]): SchedulePreApproval;
    propose(tx: Database, scheduleId: string, pre: SchedulePreApproval): Promise<void>;
  },
): Promise<string | null> {
  return db.transaction(async (tx) => {
    const [run] = await tx
      .select()
      .from(paymentRuns)
      .where(eq(paymentRuns.id, runId))
      .for('update');
    if (!run || run.status !== 'CHECKED' || run.errors.length > 0) return null;
    const rows = await tx
      .select()
      .from(paymentRunRows)
      .where(eq(paymentRunRows.runId, runId))
      .orderBy(asc(paymentRunRows.index));
    const id = randomUUID();
    const scheduled = rows.map(rowInput);
    const pre = preApproval ? preApproval.make(scheduled) : null;
    await tx.insert(paymentRunSchedules).values({
      id,
      name: run.name,
      subOrgId: run.subOrgId,
      createdById: run.createdById,
      status: 'ACTIVE',
      timing,
      rows: scheduled,
      preApproval: pre,
      nextDueAt: firstDueAt,
      occurrencesMade: 0,
      createdAt: now,
      updatedAt: now,
    });
    await tx.delete(paymentRunRows).where(eq(paymentRunRows.runId, runId));
    await tx.delete(paymentRuns).where(eq(paymentRuns.id, runId));
    if (pre && preApproval) await preApproval.propose(tx as unknown as Database, id, pre);
    return id;
  });
}

export async function loadSchedule(db: Database, id: string): Promise<ScheduleRecord | null> {
  const [found] = await db.select().from(paymentRunSchedules).where(eq(paymentRunSchedules.id, id));
  return found ?? null;
}

/** The schedule whose pre-approval (current or earlier) is the held item `approvalId`, if any. */
export async function scheduleOfApproval(
  db: Pick<Database, 'select'>,
  approvalId: string,
): Promise<ScheduleRecord | null> {
  const [found] = await db
    .select()
    .from(paymentRunSchedules)
    .where(sql`${paymentRunSchedules.preApproval} ->> 'approvalId' = ${approvalId}`);
  return found ?? null;
}

/**
 * Replaces the schedule's pre-approval under its row lock (`next` sees the
 * schedule as locked; null leaves none): a new cap is a new item to approve,
 * and the one before it stops counting. Null when the schedule is gone.
 */
export async function replacePreApproval(
  db: Database,
  now: Date,
  id: string,
  next: (schedule: ScheduleRecord, tx: Database) => Promise<SchedulePreApproval | null>,
): Promise<ScheduleRecord | null> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select()
      .from(paymentRunSchedules)
      .where(eq(paymentRunSchedules.id, id))
      .for('update');
    if (!found) return null;
    const preApproval = await next(found, tx as unknown as Database);
    await tx
      .update(paymentRunSchedules)
      .set({ preApproval, updatedAt: now })
      .where(eq(paymentRunSchedules.id, id));
    return { ...found, preApproval, updatedAt: now };
  });
}

/**
 * The pre-approval `approvalId` decided, under the schedule's row lock:
 * false when it is no longer the schedule's current one, or no longer waits.
 */
export async function decidePreApproval(
  db: Database,
  now: Date,
  approvalId: string,
  outcome: 'APPROVED' | 'DECLINED',
  approvedBy: string[],
): Promise<boolean> {
  const found = await scheduleOfApproval(db, approvalId);
  if (!found) return false;
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select()
      .from(paymentRunSchedules)
      .where(eq(paymentRunSchedules.id, found.id))
      .for('update');
    const pre = locked?.preApproval;
    if (!pre || pre.approvalId !== approvalId || pre.status !== 'PENDING') return false;
    await tx
      .update(paymentRunSchedules)
      .set({
        preApproval: {
          ...pre,
          status: outcome,
          approvedAt: outcome === 'APPROVED' ? now.toISOString() : null,
          approvedBy: outcome === 'APPROVED' ? approvedBy : [],
        },
        updatedAt: now,
      })
      .where(eq(paymentRunSchedules.id, found.id));
    return true;
  });
}

/** The schedules of `subOrgIds` (null: all), newest first. */
export async function listSchedules(
  db: Database,
  subOrgIds: readonly string[] | null,
): Promise<ScheduleRecord[]> {
  const all = await db
    .select()
    .from(paymentRunSchedules)
    .orderBy(desc(paymentRunSchedules.createdAt))
    .limit(200);
  return subOrgIds === null
    ? all
    : all.filter((s) => s.subOrgId !== null && subOrgIds.includes(s.subOrgId));
}

/** The schedules as the console answers them, each with its last occurrence's run. */
export async function answersOf(
  db: Database,
  schedules: readonly ScheduleRecord[],
): Promise<PaymentRunSchedule[]> {
  if (schedules.length === 0) return [];
  const occurrences = await db
    .select({
      scheduleId: paymentRunOccurrences.scheduleId,
      dueAt: paymentRunOccurrences.dueAt,
      runId: paymentRunOccurrences.runId,
      failure: paymentRunOccurrences.failure,
      status: paymentRuns.status,
    })
    .from(paymentRunOccurrences)
    .innerJoin(paymentRuns, eq(paymentRuns.id, paymentRunOccurrences.runId))
    .where(
      inArray(
        paymentRunOccurrences.scheduleId,
        schedules.map((s) => s.id),
      ),
    )
    .orderBy(desc(paymentRunOccurrences.dueAt));
  return schedules.map((s) => {
    const last = occurrences.find((o) => o.scheduleId === s.id);
    const upcoming =
      s.status === 'ACTIVE' && s.nextDueAt
        ? occurrencesAfter(s.timing, s.nextDueAt, 2, s.occurrencesMade + 1)
        : [];
    return {
      id: s.id,
      name: s.name,
      subOrgId: s.subOrgId,
      createdById: s.createdById,
      status: s.status,
      timing: s.timing,
      description: describeTiming(s.timing),
      rowCount: s.rows.length,
      nextDueAt: s.status === 'ACTIVE' ? (s.nextDueAt?.toISOString() ?? null) : null,
      upcoming: upcoming.map((d) => d.toISOString()),
      occurrencesMade: s.occurrencesMade,
      preApproval: s.preApproval,
      lastRun: last
        ? {
            runId: last.runId,
            dueAt: last.dueAt.toISOString(),
            status: last.status,
            failure: last.failure,
          }
        : null,
      createdAt: s.createdAt.toISOString(),
      updatedAt: s.updatedAt.toISOString(),
    };
  });
}

/**
 * Moves a schedule from one of `from` to `to`, under its row lock; `next`
 * gives the next due time for the new status. False when it was in none of
 * `from`. Runs already made are never touched.
 */
export async function moveSchedule(
  db: Database,
  now: Date,
  id: string,
  from: readonly ScheduleStatus[],
  to: ScheduleStatus,
  next: (schedule: ScheduleRecord) => Date | null = (s) => s.nextDueAt,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [found] = await tx
      .select()
      .from(paymentRunSchedules)
      .where(eq(paymentRunSchedules.id, id))
      .for('update');
    if (!found) throw notFound(id);
    if (!from.includes(found.status)) return false;
    const nextDueAt = next(found);
    await tx
      .update(paymentRunSchedules)
      .set({
        status: to === 'ACTIVE' && nextDueAt === null ? 'ENDED' : to,
        nextDueAt,
        updatedAt: now,
      })
      .where(eq(paymentRunSchedules.id, id));
    return true;
  });
}

/** The schedule, locked until `tx` ends (null when it is gone). */
export async function lockSchedule(tx: Database, id: string): Promise<ScheduleRecord | null> {
  const [found] = await tx
    .select()
    .from(paymentRunSchedules)
    .where(eq(paymentRunSchedules.id, id))
    .for('update');
  return found ?? null;
}

/** Active schedules with an occurrence due by `now`. */
export async function dueSchedules(db: Database, now: Date): Promise<string[]> {
  const due = await db
    .select({ id: paymentRunSchedules.id })
    .from(paymentRunSchedules)
    .where(and(eq(paymentRunSchedules.status, 'ACTIVE'), lte(paymentRunSchedules.nextDueAt, now)));
  return due.map((d) => d.id);
}

/**
 * Makes the schedule's occurrence due by `now`, if one is: a new run of the
 * schedule's rows under the derived id, recorded as the occurrence, and the
 * schedule moved on to its next occurrence (or ENDED), all in one
 * transaction under the schedule's row lock. False when nothing was due (or
 * another server made it first).
 */
export async function makeOccurrence(db: Database, now: Date, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [s] = await tx
      .select()
      .from(paymentRunSchedules)
      .where(eq(paymentRunSchedules.id, id))
      .for('update');
    if (!s || s.status !== 'ACTIVE' || !s.nextDueAt || s.nextDueAt > now) return false;
    const dueAt = s.nextDueAt;
    const runId = occurrenceRunId(s.id, dueAt);
    const [made] = await tx
      .select({ runId: paymentRunOccurrences.runId })
      .from(paymentRunOccurrences)
      .where(
        and(eq(paymentRunOccurrences.scheduleId, s.id), eq(paymentRunOccurrences.dueAt, dueAt)),
      );
    if (!made) {
      await createRun(tx as unknown as Database, now, {
        id: runId,
        name: `${s.name} · ${dueAt.toISOString().slice(0, 10)}`,
        subOrgId: s.subOrgId,
        createdById: s.createdById,
        rows: s.rows,
      });
      await tx.insert(paymentRunOccurrences).values({ scheduleId: s.id, dueAt, runId });
    }
    const occurrencesMade = s.occurrencesMade + 1;
    const [next] = occurrencesAfter(s.timing, dueAt, 1, occurrencesMade);
    await tx
      .update(paymentRunSchedules)
      .set({
        occurrencesMade,
        nextDueAt: next ?? null,
        status: next ? 'ACTIVE' : 'ENDED',
        updatedAt: now,
      })
      .where(eq(paymentRunSchedules.id, s.id));
    return true;
  });
}

/** Occurrences made and not yet checked and put up for approval by the scheduler. */
export async function unhandledOccurrences(db: Database): Promise<OccurrenceRecord[]> {
  return db
    .select()
    .from(paymentRunOccurrences)
    .where(isNull(paymentRunOccurrences.handledAt))
    .orderBy(asc(paymentRunOccurrences.dueAt));
}

/** The scheduler is done with the occurrence: from now on its run is its members', as any run. */
export async function markHandled(
  db: Database,
  now: Date,
  occurrence: { scheduleId: string; dueAt: Date },
  failure: string | null,
): Promise<void> {
  await db
    .update(paymentRunOccurrences)
    .set({ handledAt: now, failure })
    .where(
      and(
        eq(paymentRunOccurrences.scheduleId, occurrence.scheduleId),
        eq(paymentRunOccurrences.dueAt, occurrence.dueAt),
        isNull(paymentRunOccurrences.handledAt),
      ),
    );
}
