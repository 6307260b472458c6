import { expect } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { createPaymentRun, submitPaymentRun } from '#contract/endpoints/payment-runs.ts';
import type { PaymentRun } from '#contract/payment-runs.ts';
import { APPROVABLE_KINDS } from '../capabilities/approvals/core/kinds.ts';
import {
  createRunExecutor,
  type RunExecutor,
} from '../capabilities/approvals/payment-run/executor.ts';
import { loadRun } from '../capabilities/payment-runs/store.ts';
import { applyPolicies } from '../capabilities/policies/guard.ts';
import type { CustodyBackend } from '../custody/backend.ts';
import { runDueSteps } from '../custody/sandbox/engine/simulator.ts';
import { scopedBackend } from '../wiring/scoped-backend.ts';
import type { StaffSession } from './staff-session.ts';
import type { TestApp } from './test-app.ts';
import type { TestClock } from './test-clock.ts';

/** Payment runs in server tests: made through the real app's routes, executed by hand. */

const HOUR = 60 * 60 * 1000;
const quiet = { warn: () => undefined, error: () => undefined };

export const sendJson = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

/** A run of `rows` made by `initiator`, submitted, and approved by `approver`: ready to execute. */
export async function approvedRun(
  initiator: StaffSession,
  approver: StaffSession,
  name: string,
  rows: unknown[],
): Promise<string> {
  const created = await initiator.json(
    pathOf(createPaymentRun, {}),
    sendJson('POST', { name, rows }),
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const runId = (created.body as PaymentRun).id;
  const submitted = await initiator.json(pathOf(submitPaymentRun, { runId }), sendJson('POST'));
  expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  const card = await approver.json(pathOf(approvalCard, { entityId: runId }));
  const { digest } = card.body as { digest: string };
  const approved = await approver.json(
    pathOf(decideApprovable, { entityId: runId }),
    sendJson('POST', { action: 'approve', intent: { digest } }),
  );
  expect(approved.body).toMatchObject({ status: 'APPROVED' });
  return runId;
}

/** The executor as server.ts starts it, over `backend` (the sandbox, or a wrapper of it). */
export function executorOver(
  t: TestApp,
  clock: TestClock,
  backend: CustodyBackend,
  rowsPerPass = 20,
): RunExecutor {
  const judged = applyPolicies(scopedBackend(backend), {
    db: t.db,
    clock,
    driver: t.database.driver,
    kinds: APPROVABLE_KINDS,
  });
  return createRunExecutor({
    db: t.db,
    clock,
    judged,
    inner: backend,
    logger: quiet,
    rowsPerPass,
    rateTolerancePercent: '0.5',
  });
}

/** Executor passes and lifecycle steps, an hour of the test clock apart, until the run is `status`. */
export async function driveUntil(
  t: TestApp,
  executor: RunExecutor,
  clock: TestClock,
  runId: string,
  status: string,
): Promise<void> {
  for (let pass = 0; pass < 12; pass += 1) {
    await executor.pass();
    if ((await loadRun(t.db, runId))?.run.status === status) return;
    clock.advance(HOUR);
    await runDueSteps(t.db, clock, { timeScale: 1 });
  }
  expect((await loadRun(t.db, runId))?.run.status).toBe(status);
}
