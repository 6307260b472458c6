import { z } from 'zod';
import * as zm from 'zod/mini';
import { PositiveDecimal } from './decimal-checks.ts';
import { knownTimeZone } from './display-settings.ts';
import { PAYMENT_RUN_STATUSES } from './payment-runs.ts';
import { instantOfWall, wallTime } from './zoned-time.ts';

/**
 * A payment run's schedule: the run's rows paid once at a date and time, or
 * every month on a day at a time, each occurrence a run of its own (checked,
 * approved and paid like any run). Times are the member's wall-clock times
 * in a named zone; each occurrence's instant is worked out from them, so a
 * monthly run at 09:00 in Berlin stays at 09:00 across summer time.
 */

const SCHEDULE_REPEATS = ['ONCE', 'MONTHLY'] as const;
export const SCHEDULE_STATUSES = ['ACTIVE', 'PAUSED', 'CANCELLED', 'ENDED'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

/** The most occurrences a schedule may be ended after: ten years of months. */
const MAX_SCHEDULE_OCCURRENCES = 120;

const LOCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const LOCAL_TIME = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;
const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/** A calendar field or a count typed as digits (a day, an hour, a number of runs), never an amount. */
export function wholeNumber(digits: string): number {
  // eslint-disable-next-line no-restricted-syntax -- calendar fields and counts, not amounts
  return parseInt(digits, 10);
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** A `YYYY-MM-DD` that names a real day, as its numbers; undefined otherwise. */
function dateParts(text: string): { y: number; m: number; d: number } | undefined {
  const found = LOCAL_DATE.exec(text);
  if (!found) return undefined;
  const [y, m, d] = [found[1], found[2], found[3]].map((p) => wholeNumber(p ?? '')) as [
    number,
    number,
    number,
  ];
  if (m < 1 || m > 12 || d < 1 || d > daysIn(y, m)) return undefined;
  return { y, m, d };
}

/**
 * When a run is paid: `ONCE` at `at` (a local date and time, `2026-12-01T09:00`),
 * or `MONTHLY` on `dayOfMonth` (1–31; a month without that day pays on its
 * last day) at `time` (`09:00`), from `startsOn` (a local date, today when
 * left out), ending after `endAfterOccurrences` occurrences or on `endsOn`
 * (a local date, its own occurrence included), or never. Both in `timeZone`.
 */
export const ScheduleTiming = z
  .strictObject({
    repeat: z.enum(SCHEDULE_REPEATS, { error: 'repeat must be ONCE or MONTHLY' }),
    timeZone: z
      .string({ error: 'timeZone is required' })
      .refine(
        (zone) => knownTimeZone(zone) !== undefined,
        'timeZone must be an IANA time zone name, such as Europe/Berlin',
      ),
    at: z.string().optional(),
    dayOfMonth: z
      .number({ error: 'dayOfMonth must be a whole number from 1 to 31' })
      .int('dayOfMonth must be a whole number from 1 to 31')
      .min(1, 'dayOfMonth must be from 1 to 31')
      .max(31, 'dayOfMonth must be from 1 to 31')
      .optional(),
    time: z.string().optional(),
    startsOn: z.string().optional(),
    endAfterOccurrences: z
      .number({ error: 'endAfterOccurrences must be a whole number' })
      .int('endAfterOccurrences must be a whole number')
      .min(1, 'endAfterOccurrences must be at least 1')
      .max(
        MAX_SCHEDULE_OCCURRENCES,
        `endAfterOccurrences must be at most ${MAX_SCHEDULE_OCCURRENCES}`,
      )
      .optional(),
    endsOn: z.string().optional(),
  })
  .superRefine((t, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: 'custom', path: [path], message });
    const notTaken = (fields: readonly (keyof typeof t)[]) => {
      for (const f of fields)
        if (t[f] !== undefined) issue(f, `${f} is not taken by a ${t.repeat} schedule`);
    };
    if (t.repeat === 'ONCE') {
      if (t.at === undefined) issue('at', 'at is required: the local date and time to pay');
      else {
        const found = LOCAL_DATE_TIME.exec(t.at);
        if (!found || !dateParts(t.at.slice(0, 10)))
          issue('at', 'at must be a local date and time, such as 2026-12-01T09:00');
      }
      notTaken(['dayOfMonth', 'time', 'startsOn', 'endAfterOccurrences', 'endsOn']);
      return;
    }
    if (t.dayOfMonth === undefined) issue('dayOfMonth', 'dayOfMonth is required (1 to 31)');
    if (t.time === undefined) issue('time', 'time is required: the local time to pay, as 09:00');
    else if (!LOCAL_TIME.test(t.time)) issue('time', 'time must be a local time, such as 09:00');
    for (const f of ['startsOn', 'endsOn'] as const) {
      const v = t[f];
      if (v !== undefined && !dateParts(v)) issue(f, `${f} must be a date, such as 2026-12-01`);
    }
    if (t.endAfterOccurrences !== undefined && t.endsOn !== undefined)
      issue('endsOn', 'give endAfterOccurrences or endsOn, not both');
    if (t.startsOn && t.endsOn && t.endsOn < t.startsOn)
      issue('endsOn', 'endsOn must not be before startsOn');
    notTaken(['at']);
  });
export type ScheduleTiming = z.infer<typeof ScheduleTiming>;

/**
 * What a schedule's occurrences may pay without a new vote, once the schedule
 * is approved with it: at most `maxTotalUsd` in all per occurrence, valued
 * when it falls due, and only the schedule's own rows (their destinations and
 * assets, stated on the card). Allowed only where the transactions policy
 * allows pre-approval, up to its own ceiling.
 */
export const PreApprovalCap = z.strictObject({
  maxTotalUsd: z
    .string({ error: 'maxTotalUsd is required: the most one occurrence may pay, in USD' })
    .refine((v) => PositiveDecimal.safeParse(v).success, {
      message: 'maxTotalUsd must be a positive decimal, such as 25000.00',
    }),
});
export type PreApprovalCap = z.infer<typeof PreApprovalCap>;

/**
 * POST /api/console/payment_runs/{id}/schedule/: the checked run's rows, paid
 * on this timing; with `preApproval`, the schedule is put up for approval with
 * that cap, and its occurrences within it are paid on that one approval.
 */
export const SchedulePaymentRunRequest = z.strictObject({
  timing: ScheduleTiming,
  preApproval: PreApprovalCap.optional(),
});
export type SchedulePaymentRunRequest = z.infer<typeof SchedulePaymentRunRequest>;

/** The local date (`YYYY-MM-DD`) of `instant` in `timeZone`. */
function localDateOf(instant: Date, timeZone: string): string {
  return new Date(wallTime(instant.getTime(), timeZone)).toISOString().slice(0, 10);
}

/** The instant of a ONCE schedule's `at` in its zone. */
function onceInstant(timing: ScheduleTiming): Date | undefined {
  const found = timing.at ? LOCAL_DATE_TIME.exec(timing.at) : null;
  if (!found) return undefined;
  const [y, mo, d, h, mi, s] = found.slice(1).map((p) => wholeNumber(p ?? '0')) as number[];
  return new Date(
    instantOfWall(
      Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0),
      timing.timeZone,
    ),
  );
}

/** A MONTHLY schedule's occurrence in month `m` (1–12) of `y`: the day clamped to the month's last. */
function monthlyInstant(timing: ScheduleTiming, y: number, m: number): Date {
  const [h, mi, s] = (LOCAL_TIME.exec(timing.time ?? '')?.slice(1) ?? []).map((p) =>
    wholeNumber(p ?? '0'),
  );
  const day = Math.min(timing.dayOfMonth ?? 1, daysIn(y, m));
  return new Date(instantOfWall(Date.UTC(y, m - 1, day, h ?? 0, mi ?? 0, s ?? 0), timing.timeZone));
}

/**
 * The schedule's occurrences strictly after `after`, at most `count`, given
 * that `made` occurrences were made already: none past its end (after its
 * `endAfterOccurrences`-th, or after `endsOn`) and none before `startsOn`.
 */
export function occurrencesAfter(
  timing: ScheduleTiming,
  after: Date,
  count: number,
  made = 0,
): Date[] {
  if (timing.repeat === 'ONCE') {
    const at = onceInstant(timing);
    return at && made === 0 && at > after && count > 0 ? [at] : [];
  }
  const out: Date[] = [];
  const limit = timing.endAfterOccurrences;
  const start = timing.startsOn ? dateParts(timing.startsOn) : undefined;
  const from = localDateOf(after, timing.timeZone);
  const fromParts = dateParts(from) ?? { y: 1970, m: 1, d: 1 };
  // A month before the later of `after` and the start: a zone ahead of UTC may put it there.
  let { y, m } = start && timing.startsOn! > from ? start : fromParts;
  m -= 1;
  if (m === 0) {
    m = 12;
    y -= 1;
  }
  for (let i = 0; i < MAX_SCHEDULE_OCCURRENCES + 2 && out.length < count; i += 1) {
    const at = monthlyInstant(timing, y, m);
    const local = localDateOf(at, timing.timeZone);
    if (timing.endsOn && local > timing.endsOn) break;
    if (limit !== undefined && made + out.length >= limit) break;
    if (at > after && (!timing.startsOn || local >= timing.startsOn)) out.push(at);
    m += 1;
    if (m === 13) {
      m = 1;
      y += 1;
    }
  }
  return out;
}

/** "Every month on the 31st at 09:00 (Europe/Berlin)…", as the pages and the list say it. */
export function describeTiming(timing: ScheduleTiming): string {
  if (timing.repeat === 'ONCE')
    return `Once, on ${timing.at?.replace('T', ' at ')} (${timing.timeZone})`;
  const day = timing.dayOfMonth ?? 1;
  const ord =
    day % 10 === 1 && day !== 11
      ? 'st'
      : day % 10 === 2 && day !== 12
        ? 'nd'
        : day % 10 === 3 && day !== 13
          ? 'rd'
          : 'th';
  const end =
    timing.endAfterOccurrences !== undefined
      ? `, ${timing.endAfterOccurrences} times`
      : timing.endsOn
        ? `, until ${timing.endsOn}`
        : '';
  return `Every month on the ${day}${ord} at ${timing.time} (${timing.timeZone})${day > 28 ? ', or the month’s last day' : ''}${end}`;
}

export const PRE_APPROVAL_STATUSES = ['PENDING', 'APPROVED', 'DECLINED'] as const;

/**
 * A schedule's pre-approval: the cap as approved (or waiting), what it lets
 * through, and the approval it was given. `approvalId` is the held item the
 * approvers decide (a new one each time the cap is set).
 */
export const SchedulePreApproval = zm.object({
  approvalId: zm.string(),
  status: zm.enum(PRE_APPROVAL_STATUSES),
  maxTotalUsd: zm.string(),
  /** `ASSET on CHAIN`, each once: the assets its rows pay. */
  assets: zm.array(zm.string()),
  /** Each destination its rows pay, once: `contact <id>`, `address <addr> on <chain>`, `bank account <id>`. */
  destinations: zm.array(zm.string()),
  /** The rows' digest the approval binds. */
  rowsDigest: zm.string(),
  approvedAt: zm.nullable(zm.string()),
  /** The members whose approvals decided it, by name. */
  approvedBy: zm.array(zm.string()),
});
export type SchedulePreApproval = zm.infer<typeof SchedulePreApproval>;

/** PUT /api/console/payment_run_schedules/{id}/pre_approval/: a new cap (put up for approval anew), or none. */
export const SetSchedulePreApprovalRequest = z.strictObject({
  preApproval: PreApprovalCap.nullable(),
});
export type SetSchedulePreApprovalRequest = z.infer<typeof SetSchedulePreApprovalRequest>;

/** A schedule as the console answers it. */
export const PaymentRunSchedule = zm.object({
  id: zm.string(),
  name: zm.string(),
  subOrgId: zm.nullable(zm.string()),
  createdById: zm.string(),
  status: zm.enum(SCHEDULE_STATUSES),
  timing: zm.object({
    repeat: zm.enum(SCHEDULE_REPEATS),
    timeZone: zm.string(),
    at: zm.optional(zm.string()),
    dayOfMonth: zm.optional(zm.number()),
    time: zm.optional(zm.string()),
    startsOn: zm.optional(zm.string()),
    endAfterOccurrences: zm.optional(zm.number()),
    endsOn: zm.optional(zm.string()),
  }),
  description: zm.string(),
  rowCount: zm.int(),
  /** The next occurrence (ISO instant), null when none is left or the schedule is not active. */
  nextDueAt: zm.nullable(zm.string()),
  /** The occurrences after it (up to 3 in all with `nextDueAt`). */
  upcoming: zm.array(zm.string()),
  occurrencesMade: zm.int(),
  /** Null or absent: each occurrence is approved like a new run. */
  preApproval: zm.optional(zm.nullable(SchedulePreApproval)),
  /** The last occurrence made: its run, when it was due, where the run stands. */
  lastRun: zm.nullable(
    zm.object({
      runId: zm.string(),
      dueAt: zm.string(),
      status: zm.enum(PAYMENT_RUN_STATUSES),
      /** Why the scheduler could not put the run up for approval (a rule blocks it…), if so. */
      failure: zm.nullable(zm.string()),
    }),
  ),
  createdAt: zm.string(),
  updatedAt: zm.string(),
});
export type PaymentRunSchedule = zm.infer<typeof PaymentRunSchedule>;

export const PaymentRunScheduleList = zm.object({ results: zm.array(PaymentRunSchedule) });
export type PaymentRunScheduleList = zm.infer<typeof PaymentRunScheduleList>;
