import { describe, expect } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import {
  createPaymentRun,
  pausePaymentRun,
  resumePaymentRun,
  submitPaymentRun,
} from '#contract/endpoints/payment-runs.ts';
import type { PaymentRun } from '#contract/payment-runs.ts';
import { isPaymentRunEvent } from '#contract/live-events.ts';
import { runDueSteps } from '../../custody/sandbox/engine/simulator.ts';
import { appTest } from '../../test/app-test.ts';
import { createEngineFixture } from '../../test/engine-test-app.ts';
import { TestClock } from '../../test/test-clock.ts';
import { createSandboxBackend } from '../../wiring/sandbox-backend.ts';
import { scopedBackend } from '../../wiring/scoped-backend.ts';
import { APPROVABLE_KINDS } from '../approvals/core/kinds.ts';
import { createRunExecutor } from '../approvals/payment-run/executor.ts';
import { approvalEventSource } from '../live/approval-source.ts';
import { applyPolicies } from '../policies/guard.ts';
import { loadRun } from './store.ts';

/**
 * A payment run tells open tabs of its progress: each executor pass that
 * moved its rows or status, and each pause or resume, is one
 * `payment_run.progress` event in the log the event stream tails.
 */

const liveTest = appTest.extend('f', { scope: 'file' }, ({ t }) =>
  createEngineFixture(t.db, t.orgId),
);

const HOUR = 60 * 60 * 1000;
const quiet = { warn: () => undefined, error: () => undefined };
const send = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { 'Content-Type': 'application/json' },
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

describe('payment run progress events', () => {
  liveTest('are raised as the run is paused, resumed, executed and finished', async ({ t, f }) => {
    const initiator = await t.signIn('initiator');
    const ada = await t.signIn('approver');
    const source = approvalEventSource(t.db);
    const row = (reference: string, amount: string) => ({
      kind: 'CRYPTO',
      sourceVaultId: f.treasury.id,
      contactId: f.contacts.eth.id,
      asset: 'USDC',
      blockChain: 'ETHEREUM',
      amount,
      reference,
    });
    const created = await initiator.json(
      pathOf(createPaymentRun, {}),
      send('POST', { name: 'Live test', rows: [row('LV-1', '1.5'), row('LV-2', '2')] }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const runId = (created.body as PaymentRun).id;
    expect((await initiator.json(pathOf(submitPaymentRun, { runId }), send('POST'))).status).toBe(
      200,
    );
    const { digest } = (await ada.json(pathOf(approvalCard, { entityId: runId }))).body as {
      digest: string;
    };
    const approved = await ada.json(
      pathOf(decideApprovable, { entityId: runId }),
      send('POST', { action: 'approve', intent: { digest } }),
    );
    expect(approved.body).toMatchObject({ status: 'APPROVED' });
    const start = await source.head();
    const progress = async () =>
      (await source.after(start, 1000))
        .flatMap((r) => (r.event && isPaymentRunEvent(r.event) ? [r.event] : []))
        .filter((e) => e.runId === runId)
        .map((e) => e.status);

    const clock = new TestClock(new Date());
    const sandbox = createSandboxBackend({ db: t.db, orgId: t.orgId, clock });
    const judged = applyPolicies(scopedBackend(sandbox), {
      db: t.db,
      clock,
      driver: t.database.driver,
      kinds: APPROVABLE_KINDS,
    });
    const executor = createRunExecutor({ db: t.db, clock, judged, inner: sandbox, logger: quiet });

    await initiator.json(pathOf(pausePaymentRun, { runId }), send('POST'));
    // A paused run's pass moves nothing: no event for it.
    await executor.pass();
    expect(await progress()).toEqual(['PAUSED']);
    await initiator.json(pathOf(resumePaymentRun, { runId }), send('POST'));
    expect(await progress()).toEqual(['PAUSED', 'EXECUTING']);

    for (let pass = 0; pass < 12; pass += 1) {
      await executor.pass();
      clock.advance(HOUR);
      await runDueSteps(t.db, clock, { timeScale: 1 });
      if ((await loadRun(t.db, runId))?.run.status === 'COMPLETED') break;
    }
    const told = await progress();
    expect(told.length).toBeGreaterThan(2);
    expect(told.at(-1)).toBe('COMPLETED');
    // The event carries the run's scope, as every other the stream filters by.
    const [last] = (await source.after(start, 1000))
      .flatMap((r) => (r.event && isPaymentRunEvent(r.event) ? [r.event] : []))
      .filter((e) => e.runId === runId)
      .slice(-1);
    expect(last).toMatchObject({ kind: 'payment_run.progress', subOrgId: null });
  });
});
