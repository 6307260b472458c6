import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import {
  cancelPaymentRunSchedule,
  getPaymentRunSchedule,
  listPaymentRunSchedules,
  pausePaymentRunSchedule,
  resumePaymentRunSchedule,
  schedulePaymentRun,
  setPaymentRunSchedulePreApproval,
} from '#contract/endpoints/payment-run-schedules.ts';
import { occurrencesAfter, type PaymentRunSchedule } from '#contract/payment-run-schedules.ts';
import type { AuthOptions } from '../../../auth/session-auth.ts';
import { allowedIds, custodyContext, inScope } from '../../../custody/context.ts';
import type { CustodyBackend } from '../../../custody/backend.ts';
import type { AppEnv } from '../../../http/app-env.ts';
import { mount } from '../../../http/mount.ts';
import { loadRun } from '../store.ts';
import { proposedPreApproval, type PreApprovalProposer } from './pre-approval.ts';
import {
  answersOf,
  listSchedules,
  loadSchedule,
  moveSchedule,
  replacePreApproval,
  scheduleRun,
} from './store.ts';

/**
 * A checked run scheduled instead of submitted, and the schedules' list,
 * pause, resume and cancel (contract/endpoints/payment-run-schedules.ts).
 * Every read and write is held to the member's sub-organizations: a schedule
 * outside them is a 404. The occurrences are made by `scheduler.ts`. A cap
 * to pre-approve is put up for approval by `preApprovals` (the approval
 * kind's, approvals/payment-run/pre-approval.ts).
 */
export function paymentRunScheduleRoutes(
  options: AuthOptions,
  backend: CustodyBackend,
  preApprovals: PreApprovalProposer,
) {
  const app = new Hono<AppEnv>();
  const { db, clock } = options;

  async function visible(c: Context<AppEnv>, id: string) {
    const found = await loadSchedule(db, id);
    if (!found || !inScope(custodyContext(c), found.subOrgId))
      throw new ApiError(404, ERROR_CODES.notFound, 'No payment run schedule with that id');
    return found;
  }

  async function answer(c: Context<AppEnv>, id: string): Promise<PaymentRunSchedule> {
    const [one] = await answersOf(db, [await visible(c, id)]);
    if (!one) throw new ApiError(404, ERROR_CODES.notFound, 'No payment run schedule with that id');
    return one;
  }

  mount(app, CONSOLE_API_PREFIX, schedulePaymentRun, async ({ params, body }, c) => {
    const stored = await loadRun(db, params.runId);
    if (!stored || !inScope(custodyContext(c), stored.run.subOrgId))
      throw new ApiError(404, ERROR_CODES.notFound, 'No payment run with that id');
    // Occurrences are paid by the sandbox's executor only, as submitted runs are.
    if (backend.kind === 'upstream')
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        'Payment runs are executed on the sandbox only: in upstream mode a run can be checked but not scheduled',
      );
    const { timing, preApproval } = body;
    const now = clock.now();
    const [first] = occurrencesAfter(timing, now, 1);
    if (!first)
      throw timing.repeat === 'ONCE'
        ? new ApiError(400, ERROR_CODES.validation, 'timing.at must be in the future', [
            { field: 'timing.at', message: 'must be in the future' },
          ])
        : new ApiError(
            400,
            ERROR_CODES.validation,
            'timing.endsOn must leave at least one occurrence after now',
            [{ field: 'timing.endsOn', message: 'must leave at least one occurrence after now' }],
          );
    // Refused by the policy before anything is written: the draft stays as it was.
    const propose = preApproval
      ? await preApprovals.prepare(custodyContext(c), stored.run.subOrgId, preApproval)
      : null;
    const id = await scheduleRun(
      db,
      now,
      params.runId,
      timing,
      first,
      preApproval && propose
        ? {
            make: (rows) => proposedPreApproval(randomUUID(), preApproval, rows),
            propose: (tx, _scheduleId, pre) => propose(tx, pre),
          }
        : undefined,
    );
    if (!id)
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        `The run is ${stored.run.status}${stored.run.errors.length ? ` with ${stored.run.errors.length} check errors` : ''}: only a checked run without errors is scheduled`,
      );
    return answer(c, id);
  });

  mount(app, CONSOLE_API_PREFIX, listPaymentRunSchedules, async (_input, c) => ({
    results: await answersOf(db, await listSchedules(db, allowedIds(custodyContext(c)))),
  }));

  mount(app, CONSOLE_API_PREFIX, getPaymentRunSchedule, async ({ params }, c) =>
    answer(c, params.scheduleId),
  );

  /** A move of the schedule, or a 409 naming where it stands. */
  async function control(
    c: Context<AppEnv>,
    id: string,
    what: string,
    act: () => Promise<boolean>,
  ): Promise<PaymentRunSchedule> {
    const found = await visible(c, id);
    if (!(await act()))
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        `The schedule is ${found.status}: it cannot be ${what}`,
      );
    return answer(c, id);
  }

  mount(app, CONSOLE_API_PREFIX, pausePaymentRunSchedule, async ({ params }, c) =>
    control(c, params.scheduleId, 'paused', () =>
      moveSchedule(db, clock.now(), params.scheduleId, ['ACTIVE'], 'PAUSED'),
    ),
  );
  // Occurrences due while it was paused are skipped: it goes on from the next one after now.
  mount(app, CONSOLE_API_PREFIX, resumePaymentRunSchedule, async ({ params }, c) =>
    control(c, params.scheduleId, 'resumed', () =>
      moveSchedule(
        db,
        clock.now(),
        params.scheduleId,
        ['PAUSED'],
        'ACTIVE',
        (s) => occurrencesAfter(s.timing, clock.now(), 1, s.occurrencesMade)[0] ?? null,
      ),
    ),
  );
  mount(app, CONSOLE_API_PREFIX, cancelPaymentRunSchedule, async ({ params }, c) =>
    control(c, params.scheduleId, 'cancelled', () =>
      moveSchedule(
        db,
        clock.now(),
        params.scheduleId,
        ['ACTIVE', 'PAUSED'],
        'CANCELLED',
        () => null,
      ),
    ),
  );

  // A new cap is a new item to approve (the approval of the one before it no longer counts);
  // none leaves each occurrence to be approved like a new run.
  mount(app, CONSOLE_API_PREFIX, setPaymentRunSchedulePreApproval, async ({ params, body }, c) => {
    const found = await visible(c, params.scheduleId);
    if (found.status === 'CANCELLED' || found.status === 'ENDED')
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        `The schedule is ${found.status}: its pre-approval cannot be changed`,
      );
    const cap = body.preApproval;
    const propose = cap ? await preApprovals.prepare(custodyContext(c), found.subOrgId, cap) : null;
    await replacePreApproval(db, clock.now(), params.scheduleId, async (schedule, tx) => {
      if (!cap || !propose) return null;
      const pre = proposedPreApproval(randomUUID(), cap, schedule.rows);
      await propose(tx, pre);
      return pre;
    });
    return answer(c, params.scheduleId);
  });

  return app;
}
