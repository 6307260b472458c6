import { describe, expect } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { pausePaymentRun, resumePaymentRun } from '#contract/endpoints/payment-runs.ts';
import { isPaymentRunEvent } from '#contract/live-events.ts';
import { appTest } from '../../test/app-test.ts';
import { createEngineFixture } from '../../test/engine-test-app.ts';
import { approvedRun, driveUntil, executorOver, sendJson } from '../../test/payment-runs.ts';
import { TestClock } from '../../test/test-clock.ts';
import { createSandboxBackend } from '../../wiring/sandbox-backend.ts';
import { approvalEventSource } from '../live/approval-source.ts';

/**
 * A payment run tells open tabs of its progress: each executor pass that
 * moved its rows or status, and each pause or resume, is one
 * `payment_run.progress` event in the log the event stream tails.
 */

const liveTest = appTest.extend('f', { scope: 'file' }, ({ t }) =>
  createEngineFixture(t.db, t.orgId),
);

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
    const runId = await approvedRun(initiator, ada, 'Live test', [
      row('LV-1', '1.5'),
      row('LV-2', '2'),
    ]);
    const start = await source.head();
    const progress = async () =>
      (await source.after(start, 1000))
        .flatMap((r) => (r.event && isPaymentRunEvent(r.event) ? [r.event] : []))
        .filter((e) => e.runId === runId)
        .map((e) => e.status);

    const clock = new TestClock(new Date());
    const executor = executorOver(
      t,
      clock,
      createSandboxBackend({ db: t.db, orgId: t.orgId, clock }),
    );

    await initiator.json(pathOf(pausePaymentRun, { runId }), sendJson('POST'));
    // A paused run's pass moves nothing: no event for it.
    await executor.pass();
    expect(await progress()).toEqual(['PAUSED']);
    await initiator.json(pathOf(resumePaymentRun, { runId }), sendJson('POST'));
    expect(await progress()).toEqual(['PAUSED', 'EXECUTING']);

    await driveUntil(t, executor, clock, runId, 'COMPLETED');
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
