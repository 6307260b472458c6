import { describe, expect } from 'vitest';
import { eq } from 'drizzle-orm';
import { pathOf } from '#contract/endpoint.ts';
import { approvalInbox } from '#contract/endpoints/approvals.ts';
import {
  cancelPaymentRunSchedule,
  listPaymentRunSchedules,
  pausePaymentRunSchedule,
  resumePaymentRunSchedule,
  schedulePaymentRun,
} from '#contract/endpoints/payment-run-schedules.ts';
import { createPaymentRun, getPaymentRun } from '#contract/endpoints/payment-runs.ts';
import type { PaymentRunSchedule } from '#contract/payment-run-schedules.ts';
import type { PaymentRun } from '#contract/payment-runs.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { contacts } from '../../../db/schema/sandbox.ts';
import { createContact } from '../../../test/fixtures.ts';
import { driveUntil, executorOver, sendJson } from '../../../test/payment-runs.ts';
import { appTest } from '../../../test/app-test.ts';
import { createEngineFixture } from '../../../test/engine-test-app.ts';
import type { StaffSession } from '../../../test/staff-session.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { TestClock } from '../../../test/test-clock.ts';
import { createSandboxBackend } from '../../../wiring/sandbox-backend.ts';
import { scopedBackend } from '../../../wiring/scoped-backend.ts';
import { applyPolicies } from '../../policies/guard.ts';
import { APPROVABLE_KINDS } from '../core/kinds.ts';
import { createRunScheduler } from './scheduler.ts';
import { occurrenceRunId } from '../../payment-runs/schedule/store.ts';

/**
 * A checked run scheduled once or monthly, on the real app's database and the
 * test clock: each occurrence a new run made exactly once (however many
 * schedulers pass at once), checked as its rows stand then, put in the inbox
 * as a new held item and paid once approved; a paused or cancelled schedule
 * makes nothing more and leaves the runs already made alone.
 */

const runTest = appTest.extend('f', { scope: 'file' }, ({ t }) =>
  createEngineFixture(t.db, t.orgId),
);

const DAY = 24 * 60 * 60 * 1000;
const quiet = { warn: () => undefined, error: () => undefined };

/**
 * The scheduler as server.ts starts it, on a clock of its own: the app's clock, which the
 * members' sessions expire against, stays where it is while months pass for the scheduler.
 */
function schedulerOf(t: TestApp, clock: TestClock) {
  const backend = createSandboxBackend({ db: t.db, orgId: t.orgId, clock });
  const judged = applyPolicies(scopedBackend(backend), {
    db: t.db,
    clock,
    driver: t.database.driver,
    kinds: APPROVABLE_KINDS,
  });
  return createRunScheduler({
    db: t.db,
    clock,
    backend: judged,
    driver: t.database.driver,
    logger: quiet,
  });
}

async function checkedRun(initiator: StaffSession, name: string, rows: unknown[]) {
  const created = await initiator.json(
    pathOf(createPaymentRun, {}),
    sendJson('POST', { name, rows }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const run = created.body as PaymentRun;
  expect(run.status, JSON.stringify(run.errors)).toBe('CHECKED');
  return run.id;
}

async function schedule(initiator: StaffSession, runId: string, timing: unknown) {
  return initiator.json(pathOf(schedulePaymentRun, { runId }), sendJson('POST', { timing }));
}

async function schedules(member: StaffSession): Promise<PaymentRunSchedule[]> {
  const list = await member.json(pathOf(listPaymentRunSchedules, {}));
  return (list.body as { results: PaymentRunSchedule[] }).results;
}

describe('payment run schedules', () => {
  runTest('each bad field of a schedule is a 400 naming it', async ({ t, f, initiator }) => {
    const runId = await checkedRun(initiator, 'Refusals', [
      {
        kind: 'CRYPTO',
        sourceVaultId: f.treasury.id,
        contactId: f.contacts.eth.id,
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount: '1',
        reference: 'BAD-1',
      },
    ]);
    const past = new Date(t.clock.now().getTime() - DAY).toISOString().slice(0, 16);
    for (const [timing, field] of [
      [{ repeat: 'ONCE', at: past, timeZone: 'UTC' }, 'timing.at'],
      [{ repeat: 'MONTHLY', dayOfMonth: 32, time: '09:00', timeZone: 'UTC' }, 'timing.dayOfMonth'],
      [{ repeat: 'MONTHLY', dayOfMonth: 0, time: '09:00', timeZone: 'UTC' }, 'timing.dayOfMonth'],
      [
        { repeat: 'MONTHLY', dayOfMonth: 3, time: '09:00', timeZone: 'Nowhere/Land' },
        'timing.timeZone',
      ],
      [{ repeat: 'MONTHLY', dayOfMonth: 3, time: '9 am', timeZone: 'UTC' }, 'timing.time'],
    ] as const) {
      const refused = await schedule(initiator, runId, timing);
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(JSON.stringify(refused.body)).toContain(field);
    }
    // Nothing was lost: the draft is still there, checked, to be scheduled right.
    const run = await initiator.json(pathOf(getPaymentRun, { runId }));
    expect(run.body).toMatchObject({ status: 'CHECKED' });
  });

  runTest(
    'a monthly schedule makes each occurrence once, checked, in the inbox, paid once approved',
    async ({ t, f, initiator, approver }) => {
      const vendor = await createContact(t.db, {
        orgId: t.orgId,
        name: 'Monthly vendor',
        assetList: [],
      });
      const row = (contactId: string, reference: string) => ({
        kind: 'CRYPTO',
        sourceVaultId: f.treasury.id,
        contactId,
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount: '2',
        reference,
      });
      const draftId = await checkedRun(initiator, 'Retainers', [
        row(f.contacts.eth.id, 'RETAINER-A'),
        row(vendor.id, 'RETAINER-B'),
      ]);
      const now = t.clock.now();
      // The 31st: a month without one pays on its last day.
      const made = await schedule(initiator, draftId, {
        repeat: 'MONTHLY',
        dayOfMonth: 31,
        time: '09:00',
        timeZone: 'Europe/Berlin',
        endAfterOccurrences: 3,
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const scheduled = made.body as PaymentRunSchedule;
      expect(scheduled).toMatchObject({ status: 'ACTIVE', rowCount: 2, occurrencesMade: 0 });
      expect(scheduled.nextDueAt).not.toBeNull();
      expect(scheduled.upcoming).toHaveLength(2);
      // The draft became the schedule: it can no longer be submitted and paid now too.
      expect((await initiator.json(pathOf(getPaymentRun, { runId: draftId }))).status).toBe(404);

      const first = new Date(scheduled.nextDueAt ?? '');
      expect(first > now).toBe(true);
      const clock = new TestClock(now);
      const scheduler = schedulerOf(t, clock);
      const other = schedulerOf(t, clock);
      expect(await scheduler.pass()).toBe(0);

      // Due: two servers pass at once, and then one restarts and passes again.
      clock.set(new Date(first.getTime() + 1000));
      await Promise.all([scheduler.pass(), other.pass()]);
      await schedulerOf(t, clock).pass();
      const runId = occurrenceRunId(scheduled.id, first);
      const occurrence = await initiator.json(pathOf(getPaymentRun, { runId }));
      expect(occurrence.body).toMatchObject({
        status: 'PENDING_APPROVAL',
        createdById: scheduled.createdById,
      });
      let listed = await schedules(initiator);
      const mine = listed.find((s) => s.id === scheduled.id);
      expect(mine).toMatchObject({
        occurrencesMade: 1,
        lastRun: { runId, status: 'PENDING_APPROVAL', failure: null },
      });
      expect(listed.filter((s) => s.lastRun?.runId === runId)).toHaveLength(1);

      // A new held item in the inbox, approved like any run, then paid.
      const inbox = await approver.json(`${pathOf(approvalInbox, {})}?limit=100`);
      expect(JSON.stringify(inbox.body)).toContain(runId);
      const card = await approver.json(pathOf(approvalCard, { entityId: runId }));
      const { digest } = card.body as { digest: string };
      const approved = await approver.json(
        pathOf(decideApprovable, { entityId: runId }),
        sendJson('POST', { action: 'approve', intent: { digest } }),
      );
      expect(approved.body).toMatchObject({ status: 'APPROVED' });
      const sandbox = createSandboxBackend({ db: t.db, orgId: t.orgId, clock });
      await driveUntil(t, executorOver(t, clock, sandbox), clock, runId, 'COMPLETED');

      // The vendor is no longer approved: the next occurrence's row 2 is a row error, and
      // the run waits for a fix instead of going to the inbox. Its references, paid by the
      // schedule's own first run, are not "already paid".
      await t.db.update(contacts).set({ status: 'PENDING' }).where(eq(contacts.id, vendor.id));
      const second = new Date(mine?.nextDueAt ?? '');
      clock.set(new Date(second.getTime() + 1000));
      await scheduler.pass();
      const next = await initiator.json(
        pathOf(getPaymentRun, { runId: occurrenceRunId(scheduled.id, second) }),
      );
      const nextRun = next.body as PaymentRun;
      expect(nextRun.status).toBe('DRAFT');
      expect(nextRun.errors.map((e) => [e.row, e.code])).toEqual([[2, 'CONTACT_NOT_APPROVED']]);
      listed = await schedules(initiator);
      expect(listed.find((s) => s.id === scheduled.id)?.lastRun).toMatchObject({
        status: 'DRAFT',
        failure: '1 row needs a fix before the run can be submitted',
      });

      // Cancelled: nothing more is made, and the run already made stays as it stands.
      const cancelled = await initiator.json(
        pathOf(cancelPaymentRunSchedule, { scheduleId: scheduled.id }),
        sendJson('POST'),
      );
      expect(cancelled.body).toMatchObject({ status: 'CANCELLED', nextDueAt: null });
      clock.advance(62 * DAY);
      expect(await scheduler.pass()).toBe(0);
      listed = await schedules(initiator);
      expect(listed.find((s) => s.id === scheduled.id)).toMatchObject({
        occurrencesMade: 2,
        status: 'CANCELLED',
      });
      expect(
        (await initiator.json(pathOf(getPaymentRun, { runId: nextRun.id }))).body,
      ).toMatchObject({ status: 'DRAFT' });
    },
  );

  runTest(
    'a one-off schedule runs once; paused, it makes nothing until resumed',
    async ({ t, f, initiator }) => {
      const draftId = await checkedRun(initiator, 'One-off', [
        {
          kind: 'CRYPTO',
          sourceVaultId: f.treasury.id,
          contactId: f.contacts.eth.id,
          asset: 'USDC',
          blockChain: 'ETHEREUM',
          amount: '1',
          reference: 'ONCE-1',
        },
      ]);
      const at = new Date(t.clock.now().getTime() + 2 * DAY);
      const made = await schedule(initiator, draftId, {
        repeat: 'ONCE',
        at: at.toISOString().slice(0, 16),
        timeZone: 'UTC',
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const scheduled = made.body as PaymentRunSchedule;
      const due = new Date(scheduled.nextDueAt ?? '');
      const clock = new TestClock(t.clock.now());
      const scheduler = schedulerOf(t, clock);
      const paused = await initiator.json(
        pathOf(pausePaymentRunSchedule, { scheduleId: scheduled.id }),
        sendJson('POST'),
      );
      expect(paused.body).toMatchObject({ status: 'PAUSED', nextDueAt: null });
      const resumed = await initiator.json(
        pathOf(resumePaymentRunSchedule, { scheduleId: scheduled.id }),
        sendJson('POST'),
      );
      expect(resumed.body).toMatchObject({ status: 'ACTIVE', nextDueAt: due.toISOString() });
      clock.set(new Date(due.getTime() + 1000));
      await scheduler.pass();
      await scheduler.pass();
      const listed = (await schedules(initiator)).find((s) => s.id === scheduled.id);
      expect(listed).toMatchObject({ status: 'ENDED', occurrencesMade: 1, nextDueAt: null });
      expect(listed?.lastRun?.runId).toBe(occurrenceRunId(scheduled.id, due));
    },
  );
});
