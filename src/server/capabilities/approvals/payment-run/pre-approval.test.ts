import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { approvalInbox } from '#contract/endpoints/approvals.ts';
import {
  getPaymentRunSchedule,
  schedulePaymentRun,
  setPaymentRunSchedulePreApproval,
} from '#contract/endpoints/payment-run-schedules.ts';
import { createPaymentRun, getPaymentRun } from '#contract/endpoints/payment-runs.ts';
import type { ApprovalCardResponse } from '#contract/approval-card.ts';
import type { PaymentRunSchedule } from '#contract/payment-run-schedules.ts';
import type { PaymentRun } from '#contract/payment-runs.ts';
import { DEFAULT_POLICY, type FrozenRequirement, type Policy } from '#contract/policies.ts';
import { appTest } from '../../../test/app-test.ts';
import { createEngineFixture, type EngineFixture } from '../../../test/engine-test-app.ts';
import { driveUntil, executorOver, sendJson } from '../../../test/payment-runs.ts';
import { publishPolicy } from '../../../test/policies.ts';
import type { StaffSession } from '../../../test/staff-session.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { TestClock } from '../../../test/test-clock.ts';
import { createSandboxBackend } from '../../../wiring/sandbox-backend.ts';
import { scopedBackend } from '../../../wiring/scoped-backend.ts';
import { occurrenceRunId } from '../../payment-runs/schedule/store.ts';
import { applyPolicies } from '../../policies/guard.ts';
import { APPROVABLE_KINDS } from '../core/kinds.ts';
import { auditLog } from '../../../db/schema/console.ts';
import type { PolicyActor, RecordedDecision } from '../../policies/evaluate.ts';
import { preApprovalLapsed } from './pre-approval.ts';
import { createRunScheduler } from './scheduler.ts';

/**
 * A schedule pre-approved within a cap, on the real app's database and the
 * test clock: an occurrence within the approved cap is approved without a
 * vote and paid once (however many schedulers pass at once); one over the
 * cap, after the policy stopped allowing it, or after the cap was changed
 * is held as a new item, approved like any run.
 */

const runTest = appTest
  .extend('f', { scope: 'file' }, ({ t }) => createEngineFixture(t.db, t.orgId))
  .extend('reviewer', { scope: 'file' }, ({ t }) => t.signIn('admin'));

const DAY = 24 * 60 * 60 * 1000;
const quiet = { warn: () => undefined, error: () => undefined };

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

const allowing = (maxOccurrenceUsd: string): Policy => ({
  ...DEFAULT_POLICY,
  schedulePreApproval: { maxOccurrenceUsd },
});

/** Two rows of 2 USDC: a $4 occurrence. */
const rowsOf = (f: EngineFixture, reference: string) =>
  ['A', 'B'].map((part) => ({
    kind: 'CRYPTO',
    sourceVaultId: f.treasury.id,
    contactId: f.contacts.eth.id,
    asset: 'USDC',
    blockChain: 'ETHEREUM',
    amount: '2',
    reference: `${reference}-${part}`,
  }));

/** A checked run of `rows` scheduled once, two days on, with `preApproval` if given. */
async function scheduleOnce(
  t: TestApp,
  initiator: StaffSession,
  rows: unknown[],
  preApproval?: { maxTotalUsd: string },
) {
  const created = await initiator.json(
    pathOf(createPaymentRun, {}),
    sendJson('POST', { name: 'Retainers', rows }),
  );
  expect((created.body as PaymentRun).status, JSON.stringify(created.body)).toBe('CHECKED');
  const at = new Date(t.clock.now().getTime() + 2 * DAY).toISOString().slice(0, 16);
  return initiator.json(
    pathOf(schedulePaymentRun, { runId: (created.body as PaymentRun).id }),
    sendJson('POST', {
      timing: { repeat: 'ONCE', at, timeZone: 'UTC' },
      ...(preApproval ? { preApproval } : {}),
    }),
  );
}

/** `member` approves the held item `entityId` on the card they read. */
async function approve(member: StaffSession, entityId: string) {
  const card = await member.json(pathOf(approvalCard, { entityId }));
  expect(card.status, JSON.stringify(card.body)).toBe(200);
  const { digest } = card.body as ApprovalCardResponse;
  return member.json(
    pathOf(decideApprovable, { entityId }),
    sendJson('POST', { action: 'approve', intent: { digest } }),
  );
}

/** The schedule's occurrence, once it fell due and the schedulers passed. */
async function occurrenceOf(
  t: TestApp,
  member: StaffSession,
  schedule: PaymentRunSchedule,
  clock: TestClock,
) {
  const due = new Date(schedule.nextDueAt ?? '');
  clock.set(new Date(due.getTime() + 1000));
  await schedulerOf(t, clock).pass();
  const runId = occurrenceRunId(schedule.id, due);
  return (await member.json(pathOf(getPaymentRun, { runId }))).body as PaymentRun;
}

describe('pre-approved payment run schedules', () => {
  runTest(
    'an occurrence within the approved cap is paid once without a vote',
    async ({ t, f, initiator, approver, reviewer }) => {
      // Off by default: a cap is refused, naming the field, and the draft stays to schedule.
      const off = await scheduleOnce(t, initiator, rowsOf(f, 'OFF'), { maxTotalUsd: '10' });
      expect(off.status, JSON.stringify(off.body)).toBe(409);
      expect(JSON.stringify(off.body)).toContain('preApproval.maxTotalUsd');

      await publishPolicy(t.db, 'transactions', allowing('100'), {
        editor: t.admin,
        reviewer,
        now: t.authClock.now(),
      });
      const over = await scheduleOnce(t, initiator, rowsOf(f, 'CEIL'), { maxTotalUsd: '100.01' });
      expect(over.status, JSON.stringify(over.body)).toBe(409);
      expect(JSON.stringify(over.body)).toContain('up to 100 USD per occurrence');

      const made = await scheduleOnce(t, initiator, rowsOf(f, 'PRE'), { maxTotalUsd: '10' });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const schedule = made.body as PaymentRunSchedule;
      expect(schedule.preApproval).toMatchObject({
        status: 'PENDING',
        maxTotalUsd: '10',
        assets: ['USDC on ETHEREUM'],
        destinations: [`contact ${f.contacts.eth.id}`],
      });
      const approvalId = schedule.preApproval?.approvalId ?? '';

      // The cap is on the card the approvers sign; its creator never approves it.
      const card = await approver.json(pathOf(approvalCard, { entityId: approvalId }));
      expect((card.body as ApprovalCardResponse).card.intent.schedule).toMatchObject({
        maxTotalUsd: '10',
        assets: ['USDC on ETHEREUM'],
      });
      expect((await approve(initiator, approvalId)).status).toBe(403);
      expect((await approve(approver, approvalId)).body).toMatchObject({ status: 'APPROVED' });
      const approved = (
        await initiator.json(pathOf(getPaymentRunSchedule, { scheduleId: schedule.id }))
      ).body as PaymentRunSchedule;
      expect(approved.preApproval).toMatchObject({
        status: 'APPROVED',
        approvedBy: [approver.member.name],
      });

      // Due: two servers pass at once, then one restarts and passes again.
      const clock = new TestClock(t.clock.now());
      const due = new Date(schedule.nextDueAt ?? '');
      clock.set(new Date(due.getTime() + 1000));
      await Promise.all([schedulerOf(t, clock).pass(), schedulerOf(t, clock).pass()]);
      await schedulerOf(t, clock).pass();
      const runId = occurrenceRunId(schedule.id, due);
      const run = (await initiator.json(pathOf(getPaymentRun, { runId }))).body as PaymentRun;
      expect(run).toMatchObject({
        status: 'APPROVED',
        preApproved: { scheduleId: schedule.id, approvalId, approvedBy: [approver.member.name] },
      });
      const inbox = await approver.json(`${pathOf(approvalInbox, {})}?limit=100`);
      expect(JSON.stringify(inbox.body)).not.toContain(runId);
      const listed = (
        await initiator.json(pathOf(getPaymentRunSchedule, { scheduleId: schedule.id }))
      ).body as PaymentRunSchedule;
      expect(listed).toMatchObject({ occurrencesMade: 1, lastRun: { runId, failure: null } });

      // Paid on the schedule's approval: each row once.
      const sandbox = createSandboxBackend({ db: t.db, orgId: t.orgId, clock });
      await driveUntil(t, executorOver(t, clock, sandbox), clock, runId, 'COMPLETED');
      const paid = (await initiator.json(pathOf(getPaymentRun, { runId }))).body as PaymentRun;
      expect(paid.rows.map((r) => r.status)).toEqual(['COMPLETED', 'COMPLETED']);
      expect(new Set(paid.rows.map((r) => r.transactionId)).size).toBe(2);
    },
  );

  runTest(
    'an occurrence over the cap, under a policy that stopped allowing it, or after a new cap is held for a vote',
    async ({ t, f, initiator, approver, reviewer }) => {
      await publishPolicy(t.db, 'transactions', allowing('100'), {
        editor: t.admin,
        reviewer,
        now: t.authClock.now(),
      });
      const held = async (schedule: PaymentRunSchedule) => {
        const run = await occurrenceOf(t, initiator, schedule, new TestClock(t.clock.now()));
        expect(run.status).toBe('PENDING_APPROVAL');
        expect(run.preApproved).toBeUndefined();
        const inbox = await approver.json(`${pathOf(approvalInbox, {})}?limit=100`);
        expect(JSON.stringify(inbox.body)).toContain(run.id);
      };
      const preApproved = async (reference: string, maxTotalUsd: string) => {
        const made = await scheduleOnce(t, initiator, rowsOf(f, reference), { maxTotalUsd });
        expect(made.status, JSON.stringify(made.body)).toBe(201);
        const schedule = made.body as PaymentRunSchedule;
        const approved = await approve(approver, schedule.preApproval?.approvalId ?? '');
        expect(approved.body).toMatchObject({ status: 'APPROVED' });
        return schedule;
      };

      // $4 of rows against a $3 cap.
      await held(await preApproved('OVER', '3'));

      // A new cap voids the approval of the one before: the old item is decided no more.
      const changed = await preApproved('NEWCAP', '10');
      const reset = await initiator.json(
        pathOf(setPaymentRunSchedulePreApproval, { scheduleId: changed.id }),
        sendJson('PUT', { preApproval: { maxTotalUsd: '20' } }),
      );
      expect(reset.status, JSON.stringify(reset.body)).toBe(200);
      const now = reset.body as PaymentRunSchedule;
      expect(now.preApproval).toMatchObject({ status: 'PENDING', maxTotalUsd: '20' });
      expect(now.preApproval?.approvalId).not.toBe(changed.preApproval?.approvalId);
      await held(changed);

      // Approved, then the policy no longer allows pre-approval.
      const later = await preApproved('POLICY', '10');
      await publishPolicy(t.db, 'transactions', DEFAULT_POLICY, {
        editor: t.admin,
        reviewer,
        now: t.authClock.now(),
      });
      await held(later);
    },
  );

  runTest(
    'an occurrence is held for a vote once the member who pre-approved it is disabled',
    async ({ t, f, initiator, approver, reviewer }) => {
      await publishPolicy(t.db, 'transactions', allowing('100'), {
        editor: t.admin,
        reviewer,
        now: t.authClock.now(),
      });
      const leaver = await t.signIn('approver');
      const made = await scheduleOnce(t, initiator, rowsOf(f, 'LEAVER'), { maxTotalUsd: '10' });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const schedule = made.body as PaymentRunSchedule;
      const approved = await approve(leaver, schedule.preApproval?.approvalId ?? '');
      expect(approved.body).toMatchObject({ status: 'APPROVED' });

      const disabled = await t.admin.request(`/api/console/staff/${leaver.member.id}/`, {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ disabled: true }),
      });
      expect(disabled.status, await disabled.text()).toBe(200);

      const run = await occurrenceOf(t, initiator, schedule, new TestClock(t.clock.now()));
      expect(run.status).toBe('PENDING_APPROVAL');
      expect(run.preApproved).toBeUndefined();
      const inbox = await approver.json(`${pathOf(approvalInbox, {})}?limit=100`);
      expect(JSON.stringify(inbox.body)).toContain(run.id);
      const [why] = await t.db
        .select({ summary: auditLog.summary })
        .from(auditLog)
        .where(
          and(eq(auditLog.entityId, run.id), eq(auditLog.action, 'payment_run.pre_approval_held')),
        );
      expect(why?.summary).toContain(`${leaver.member.name} is disabled`);
    },
  );
});

describe('a pre-approval counted again as an occurrence falls due', () => {
  const rule: FrozenRequirement = {
    ruleId: 'r',
    ruleName: 'Runs',
    policyVersion: 1,
    outcome: {
      action: 'ALLOW',
      approvals: 2,
      approvers: { kinds: ['approver', 'admin'], memberIds: [] },
      apiClientMayApproveOwn: false,
    },
  };
  const initiator: PolicyActor = { kind: 'staff', id: 'maker', role: 'initiator' };
  const votes: RecordedDecision[] = [
    { actor: { kind: 'staff', id: 'ann', role: 'approver' }, decision: 'APPROVE' },
    { actor: { kind: 'staff', id: 'bob', role: 'admin' }, decision: 'APPROVE' },
  ];
  const member = (name: string, role: 'viewer' | 'approver' | 'admin', disabled = false) => ({
    name,
    role,
    disabled,
  });

  it('stands while its approvers still may approve', () => {
    const now = new Map([
      ['ann', member('Ann', 'approver')],
      ['bob', member('Bob', 'approver')],
    ]);
    expect(preApprovalLapsed(rule, initiator, votes, now)).toBeNull();
  });

  it('lapses when one is made a viewer or is gone, naming why', () => {
    const demoted = new Map([
      ['ann', member('Ann', 'viewer')],
      ['bob', member('Bob', 'admin')],
    ]);
    expect(preApprovalLapsed(rule, initiator, votes, demoted)).toBe(
      'the schedule’s pre-approval no longer stands (Ann is now a viewer): the rule “Runs” needs 2 approvals and 1 still counts',
    );
    const gone = new Map([['bob', member('Bob', 'admin')]]);
    expect(preApprovalLapsed(rule, initiator, votes, gone)).toContain(
      'an approver’s account is gone',
    );
  });
});
