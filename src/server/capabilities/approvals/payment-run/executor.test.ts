import { describe, expect } from 'vitest';
import { mul } from '#contract/decimal.ts';
import { ApiError } from '#contract/api-error.ts';
import { pathOf } from '#contract/endpoint.ts';
import { updateDisplaySettings } from '#contract/endpoints/account.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import {
  cancelPaymentRun,
  createPaymentRun,
  pausePaymentRun,
  paymentRunReconciliation,
  paymentRunReconciliationCsv,
  resumePaymentRun,
  retryPaymentRun,
  submitPaymentRun,
} from '#contract/endpoints/payment-runs.ts';
import type { PaymentRun, PaymentRunReconciliation } from '#contract/payment-runs.ts';
import type { CustodyBackend } from '../../../custody/backend.ts';
import { declineTransaction } from '../../../custody/sandbox/engine/approval-outcome.ts';
import { bankAccounts, vaultBalances } from '../../../db/schema/sandbox.ts';
import { paymentRuns } from '../../../db/schema/console.ts';
import { createBankAccount, createVault } from '../../../test/fixtures.ts';
import { approvedRun, driveUntil, executorOver, sendJson } from '../../../test/payment-runs.ts';
import { runDueSteps } from '../../../custody/sandbox/engine/simulator.ts';
import { appTest } from '../../../test/app-test.ts';
import { createEngineFixture } from '../../../test/engine-test-app.ts';
import type { TestApp } from '../../../test/test-app.ts';
import { TestClock } from '../../../test/test-clock.ts';
import { createSandboxBackend } from '../../../wiring/sandbox-backend.ts';
import { scopedBackend } from '../../../wiring/scoped-backend.ts';
import { applyPolicies } from '../../policies/guard.ts';
import { requirementOf } from '../../policies/votes.store.ts';
import { rowContext } from '../../payment-runs/row-transaction.ts';
import { loadRun } from '../../payment-runs/store.ts';
import { APPROVABLE_KINDS } from '../core/kinds.ts';
import { createRunExecutor } from './executor.ts';
import { and, eq } from 'drizzle-orm';

/**
 * An approved payment run executed row by row on the real app's database:
 * each row's transaction made once (a crash after a create finds it again by
 * its externalId), approved with the run's approval and not asked again, and
 * reconciled once it ends; nobody else can make a row's transaction.
 */

const runTest = appTest.extend('f', { scope: 'file' }, ({ t }) =>
  createEngineFixture(t.db, t.orgId),
);

const HOUR = 60 * 60 * 1000;
const quiet = { warn: () => undefined, error: () => undefined };

/** A vault's USDC on Ethereum set to `amount`, so its rows fail to sign, or can again. */
async function setUsdcOf(t: TestApp, vaultId: string, amount: string) {
  await t.db
    .update(vaultBalances)
    .set({ amount })
    .where(
      and(
        eq(vaultBalances.vaultId, vaultId),
        eq(vaultBalances.asset, 'USDC'),
        eq(vaultBalances.chain, 'ETHEREUM'),
      ),
    );
}

describe('the payment run executor', () => {
  runTest(
    'pays each row exactly once, on the run’s approval, through a crash after a create',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      const ada = await t.signIn('approver');
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
        sendJson('POST', {
          name: 'Executor test',
          rows: [row('EX-1', '1.5'), row('EX-2', '2.25'), row('EX-3', '3')],
        }),
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const runId = (created.body as PaymentRun).id;
      const submitted = await initiator.json(pathOf(submitPaymentRun, { runId }), sendJson('POST'));
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
      const card = await ada.json(pathOf(approvalCard, { entityId: runId }));
      const { digest } = card.body as { digest: string };
      const approved = await ada.json(
        pathOf(decideApprovable, { entityId: runId }),
        sendJson('POST', { action: 'approve', intent: { digest } }),
      );
      expect(approved.body).toMatchObject({ status: 'APPROVED' });

      const clock = new TestClock(new Date());
      const sandbox = createSandboxBackend({ db: t.db, orgId: t.orgId, clock });
      // The server dies right after the custody backend made row 2's transaction, once.
      let crashed = false;
      const crashing: CustodyBackend = {
        ...sandbox,
        async createTransaction(ctx, body) {
          const made = await sandbox.createTransaction(ctx, body);
          if (!crashed && body.externalId?.endsWith('-row-2')) {
            crashed = true;
            throw new Error('the server stopped here');
          }
          return made;
        },
      };
      const judged = applyPolicies(scopedBackend(crashing), {
        db: t.db,
        clock,
        driver: t.database.driver,
        kinds: APPROVABLE_KINDS,
      });

      // Nobody but the executor makes a row's transaction: not by its externalId, not with a
      // context copied from the executor's.
      const stolen = { ...rowContext({ type: 'STAFF', id: 'someone' }, { runId, index: 1 }) };
      for (const ctx of [{ actor: { type: 'API_USER' as const, id: 'client' } }, stolen]) {
        const refused = await judged
          .createTransaction(ctx, {
            category: 'TRANSFER',
            source: { type: 'VAULT', id: f.treasury.id },
            destination: { type: 'CONTACT', id: f.contacts.eth.id },
            asset: 'USDC',
            blockChain: 'ETHEREUM',
            amount: '1.5',
            externalId: `run-${runId}-row-1`,
          })
          .then(
            () => null,
            (error: unknown) => error,
          );
        expect(refused).toBeInstanceOf(ApiError);
        expect(refused).toMatchObject({ status: 400, fields: [{ field: 'externalId' }] });
      }

      const executor = createRunExecutor({
        db: t.db,
        clock,
        judged,
        inner: sandbox,
        logger: quiet,
        rateTolerancePercent: '0.5',
      });
      // Paused, nothing is sent; resumed, it starts where it stood.
      const paused = await initiator.json(pathOf(pausePaymentRun, { runId }), sendJson('POST'));
      expect(paused.body).toMatchObject({ status: 'PAUSED' });
      await executor.pass();
      expect((await loadRun(t.db, runId))?.rows.map((r) => r.status)).toEqual([
        'PENDING',
        'PENDING',
        'PENDING',
      ]);
      const resumed = await initiator.json(pathOf(resumePaymentRun, { runId }), sendJson('POST'));
      expect(resumed.body).toMatchObject({ status: 'EXECUTING' });
      for (let pass = 0; pass < 12; pass += 1) {
        await executor.pass();
        clock.advance(HOUR);
        await runDueSteps(t.db, clock, { timeScale: 1 });
        const stored = await loadRun(t.db, runId);
        if (stored?.run.status === 'COMPLETED') break;
      }
      expect(crashed).toBe(true);
      const stored = await loadRun(t.db, runId);
      expect(stored?.run.status).toBe('COMPLETED');
      for (const r of stored?.rows ?? []) {
        expect(r.status).toBe('COMPLETED');
        expect(r.txHash).toBeTruthy();
        expect(r.feeAmount).toBeTruthy();
        expect(r.completedAt).not.toBeNull();
        // Exactly one transaction under the row's externalId, the one recorded.
        const found = await sandbox.listTransactions({}, { externalId: r.externalId, limit: 10 });
        expect(found.results.map((x) => x.id)).toEqual([r.transactionId]);
        // It carries the run's rule: not asked again on its own.
        const frozen = await requirementOf(t.db, r.transactionId ?? '');
        expect(frozen?.requirement.ruleName).toBe(
          (await requirementOf(t.db, runId))?.requirement.ruleName,
        );
      }

      // The reconciliation, on the API and as a file.
      const rec = await initiator.json(pathOf(paymentRunReconciliation, { runId }));
      const recon = rec.body as PaymentRunReconciliation;
      expect(recon.rows.map((r) => [r.index, r.status, r.transactionId])).toEqual(
        stored?.rows.map((r) => [r.index, 'COMPLETED', r.transactionId]),
      );
      // The file shows each completed time in the member's own zone, and names it.
      const zone = await initiator.json(
        pathOf(updateDisplaySettings, {}),
        sendJson('PATCH', { timeZone: 'Asia/Tokyo' }),
      );
      expect(zone.status, JSON.stringify(zone.body)).toBe(200);
      const file = await initiator.request(pathOf(paymentRunReconciliationCsv, { runId }));
      expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
      const lines = (await file.text()).split('\r\n');
      expect(lines[0]).toMatch(/^index,reference,asset,blockChain,amount,status,externalId/);
      expect(lines).toHaveLength(4);
      const header = lines[0]?.split(',') ?? [];
      for (const [i, r] of recon.rows.entries()) {
        const cells = lines[i + 1]?.split(',') ?? [];
        const at = (column: string) => cells[header.indexOf(column)];
        expect(r.completedAt).toMatch(/Z$/);
        // Sweden's locale writes `YYYY-MM-DD HH:mm:ss`: another path to the same wall clock.
        expect(at('completedAt')).toBe(
          new Date(r.completedAt ?? '').toLocaleString('sv-SE', { timeZone: 'Asia/Tokyo' }),
        );
        expect(at('timeZone')).toBe('Asia/Tokyo');
      }
    },
  );

  runTest(
    'pays a fiat row by an off-ramp on the run’s approval, quoted again, and refuses one whose account or price moved',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      const account = () =>
        createBankAccount(t.db, { orgId: t.orgId, status: 'APPROVED', paymentMethod: 'US_ACH' });
      const [payee, revoked, repriced] = [await account(), await account(), await account()];
      const fiat = (reference: string, bankAccountId: string, amount: string) => ({
        kind: 'FIAT',
        sourceVaultId: f.treasury.id,
        bankAccountId,
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount,
        reference,
      });
      const runId = await approvedRun(initiator, await t.signIn('approver'), 'Fiat test', [
        fiat('FX-1', payee.id, '100'),
        fiat('FX-2', revoked.id, '50'),
        fiat('FX-3', repriced.id, '60'),
      ]);
      const checked = await loadRun(t.db, runId);
      const offRamps = checked?.run.simulation?.offRamps ?? [];
      expect(offRamps.map((o) => [o.row, o.currency, o.paymentMethod])).toEqual([
        [1, 'USD', 'US_ACH'],
        [2, 'USD', 'US_ACH'],
        [3, 'USD', 'US_ACH'],
      ]);
      // After the approval: row 2's account is declined, and row 3 was approved on an arrival
      // 5% above what the provider pays now (beyond the 0.5% tolerance).
      await t.db
        .update(bankAccounts)
        .set({ status: 'DECLINED' })
        .where(eq(bankAccounts.id, revoked.id));
      const simulation = checked?.run.simulation;
      if (!simulation) throw new Error('the run was not simulated');
      await t.db
        .update(paymentRuns)
        .set({
          simulation: {
            ...simulation,
            offRamps: offRamps.map((o) =>
              o.row === 3 ? { ...o, toAmount: mul(o.toAmount, '1.05') } : o,
            ),
          },
        })
        .where(eq(paymentRuns.id, runId));

      const clock = new TestClock(new Date());
      const sandbox = createSandboxBackend({ db: t.db, orgId: t.orgId, clock });
      const executor = executorOver(t, clock, sandbox);
      await driveUntil(t, executor, clock, runId, 'PARTIALLY_FAILED');

      const stored = await loadRun(t.db, runId);
      expect(stored?.rows.map((r) => r.status)).toEqual(['COMPLETED', 'REFUSED', 'REFUSED']);
      expect(stored?.rows[1]?.failure).toMatch(/is DECLINED now, not APPROVED/);
      expect(stored?.rows[2]?.failure).toMatch(/below the .* USD approved less the 0.5% tolerance/);
      const paid = await sandbox.getTransaction({}, stored?.rows[0]?.transactionId ?? '');
      expect(paid).toMatchObject({
        category: 'OFF_RAMP',
        status: 'COMPLETED',
        externalId: stored?.rows[0]?.externalId,
        vaultId: f.treasury.id,
      });
      // Nothing reached the custody side for the refused rows.
      for (const r of stored?.rows.slice(1) ?? []) {
        const found = await sandbox.listTransactions({}, { externalId: r.externalId, limit: 10 });
        expect(found.results).toEqual([]);
      }
      // Nobody else may make a row's off-ramp ahead of the executor.
      const judged = applyPolicies(scopedBackend(sandbox), {
        db: t.db,
        clock,
        driver: t.database.driver,
        kinds: APPROVABLE_KINDS,
      });
      const early = await judged
        .createRampTransaction(
          { actor: { type: 'STAFF', id: initiator.member.id } },
          {
            category: 'OFF_RAMP',
            source: { type: 'VAULT', id: f.treasury.id },
            destination: { type: 'BANK_ACCOUNT', id: payee.id },
            quoteId: 'any',
            externalId: `run-${runId}-row-9`,
          },
        )
        .then(
          () => null,
          (error: unknown) => error,
        );
      expect(early).toMatchObject({ status: 400, fields: [{ field: 'externalId' }] });
    },
  );

  runTest(
    'cancelling the rest declines what waits for approval and sends nothing more',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      const row = (reference: string) => ({
        kind: 'CRYPTO',
        sourceVaultId: f.treasury.id,
        contactId: f.contacts.eth.id,
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount: '1.25',
        reference,
      });
      const runId = await approvedRun(initiator, await t.signIn('approver'), 'Cancel test', [
        row('CX-1'),
        row('CX-2'),
        row('CX-3'),
      ]);
      const clock = new TestClock(new Date());
      const sandbox = createSandboxBackend({ db: t.db, orgId: t.orgId, clock });
      // One row a pass: row 1's transaction is made and waits for the run's approval.
      const executor = executorOver(t, clock, sandbox, 1);
      await executor.pass();
      const first = (await loadRun(t.db, runId))?.rows[0];
      expect(first?.status).toBe('SUBMITTED');
      expect((await sandbox.getTransaction({}, first?.transactionId ?? '')).status).toBe('PENDING');

      const cancelled = await initiator.json(pathOf(cancelPaymentRun, { runId }), sendJson('POST'));
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      expect(cancelled.body).toMatchObject({
        status: 'CANCELLED',
        rows: [{ status: 'SUBMITTED' }, { status: 'CANCELLED' }, { status: 'CANCELLED' }],
      });
      for (let pass = 0; pass < 4; pass += 1) {
        await executor.pass();
        clock.advance(HOUR);
        await runDueSteps(t.db, clock, { timeScale: 1 });
      }
      const stored = await loadRun(t.db, runId);
      expect(stored?.run.status).toBe('CANCELLED');
      expect(stored?.rows.map((r) => r.status)).toEqual(['FAILED', 'CANCELLED', 'CANCELLED']);
      // Row 1's transaction was declined, not approved; rows 2 and 3 never reached the custody side.
      expect((await sandbox.getTransaction({}, first?.transactionId ?? '')).status).toBe(
        'DECLINED',
      );
      for (const r of stored?.rows.slice(1) ?? []) {
        const found = await sandbox.listTransactions({}, { externalId: r.externalId, limit: 10 });
        expect(found.results).toEqual([]);
      }
      // A cancelled run is not taken up again.
      const retried = await initiator.json(pathOf(retryPaymentRun, { runId }), sendJson('POST'));
      expect(retried.status).toBe(409);
      expect(retried.body).toMatchObject({ code: 'CONFLICT' });
    },
  );

  runTest(
    'retry sends only failed rows again, each under a new externalId, never one declined at the custody side',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      // Row 2 pays from a vault of its own, emptied after the run is approved: it fails at signing.
      const small = await createVault(t.db, { orgId: t.orgId, vaultName: 'Retry vault' }, [
        { asset: 'ETH', chain: 'ETHEREUM', amount: '1' },
        { asset: 'USDC', chain: 'ETHEREUM', amount: '100' },
      ]);
      const row = (reference: string, sourceVaultId = f.treasury.id) => ({
        kind: 'CRYPTO',
        sourceVaultId,
        contactId: f.contacts.eth.id,
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount: '2.5',
        reference,
      });
      const runId = await approvedRun(initiator, await t.signIn('approver'), 'Retry test', [
        row('RY-1'),
        row('RY-2', small.id),
        row('RY-3'),
      ]);
      const clock = new TestClock(new Date());
      const sandbox = createSandboxBackend({ db: t.db, orgId: t.orgId, clock });
      const executor = executorOver(t, clock, sandbox);
      await setUsdcOf(t, small.id, '0');
      await executor.pass();
      const sent = await loadRun(t.db, runId);
      expect(sent?.rows.map((r) => r.status)).toEqual(['SUBMITTED', 'SUBMITTED', 'SUBMITTED']);
      // A custody approver declines row 3's transaction before the run's approval reaches it.
      const declined = sent?.rows[2];
      expect(
        await declineTransaction(t.db, {
          transactionId: declined?.transactionId ?? '',
          at: clock.now(),
          reason: 'not this vendor',
        }),
      ).toBe(true);
      await driveUntil(t, executor, clock, runId, 'PARTIALLY_FAILED');
      const ended = await loadRun(t.db, runId);
      expect(ended?.rows.map((r) => r.status)).toEqual(['COMPLETED', 'FAILED', 'FAILED']);
      expect(ended?.rows[1]?.failure).toMatch(/insufficient balance/);
      expect(ended?.rows[2]?.failure).toMatch(/declined/);

      await setUsdcOf(t, small.id, '100');
      const retried = await initiator.json(pathOf(retryPaymentRun, { runId }), sendJson('POST'));
      expect(retried.status, JSON.stringify(retried.body)).toBe(200);
      expect(retried.body).toMatchObject({
        status: 'EXECUTING',
        rows: [
          { status: 'COMPLETED', externalId: `run-${runId}-row-1` },
          { status: 'PENDING', externalId: `run-${runId}-row-2-2`, transactionId: null },
          { status: 'FAILED', externalId: `run-${runId}-row-3` },
        ],
      });
      await driveUntil(t, executor, clock, runId, 'PARTIALLY_FAILED');
      const done = await loadRun(t.db, runId);
      expect(done?.rows.map((r) => r.status)).toEqual(['COMPLETED', 'COMPLETED', 'FAILED']);
      // The failed attempt keeps its own transaction; the new one is the only one under its id.
      const failedTx = await sandbox.listTransactions(
        {},
        { externalId: `run-${runId}-row-2`, limit: 10 },
      );
      expect(failedTx.results.map((x) => x.status)).toEqual(['FAILED']);
      const paid = await sandbox.listTransactions(
        {},
        { externalId: `run-${runId}-row-2-2`, limit: 10 },
      );
      expect(paid.results.map((x) => x.id)).toEqual([done?.rows[1]?.transactionId]);
      // Only the declined row is left: nothing a retry may send, so it is refused naming why.
      const again = await initiator.json(pathOf(retryPaymentRun, { runId }), sendJson('POST'));
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'CONFLICT' });
    },
  );

  runTest(
    'retry never sends a failed row again once another run pays its reference',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      const approver = await t.signIn('approver');
      const small = await createVault(t.db, { orgId: t.orgId, vaultName: 'Repaid vault' }, [
        { asset: 'ETH', chain: 'ETHEREUM', amount: '1' },
        { asset: 'USDC', chain: 'ETHEREUM', amount: '100' },
      ]);
      const row = (sourceVaultId: string) => ({
        kind: 'CRYPTO',
        sourceVaultId,
        contactId: f.contacts.eth.id,
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount: '3',
        reference: 'RP-1',
      });
      const runId = await approvedRun(initiator, approver, 'Repaid test', [row(small.id)]);
      const clock = new TestClock(new Date());
      const sandbox = createSandboxBackend({ db: t.db, orgId: t.orgId, clock });
      const executor = executorOver(t, clock, sandbox);
      await setUsdcOf(t, small.id, '0');
      await driveUntil(t, executor, clock, runId, 'PARTIALLY_FAILED');

      // The failed row paid in a new run from another vault, as the docs advise.
      const created = await initiator.json(
        pathOf(createPaymentRun, {}),
        sendJson('POST', { name: 'Repaid elsewhere', rows: [row(f.treasury.id)] }),
      );
      expect(created.body).toMatchObject({ status: 'CHECKED', errors: [] });
      const other = (created.body as PaymentRun).id;
      const submitted = await initiator.json(
        pathOf(submitPaymentRun, { runId: other }),
        sendJson('POST'),
      );
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);

      // The first run's retry would pay the same invoice twice: nothing is sent again.
      await setUsdcOf(t, small.id, '100');
      const retried = await initiator.json(pathOf(retryPaymentRun, { runId }), sendJson('POST'));
      expect(retried.status, JSON.stringify(retried.body)).toBe(409);
      expect(JSON.stringify(retried.body)).toMatch(/another run/);
      expect((await loadRun(t.db, runId))?.rows.map((r) => r.status)).toEqual(['FAILED']);
    },
  );

  runTest(
    'reads in full only the rows’ transactions that wait for approval or ended, not those on their way',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      const row = (reference: string) => ({
        kind: 'CRYPTO',
        sourceVaultId: f.treasury.id,
        contactId: f.contacts.eth.id,
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount: '1',
        reference,
      });
      const runId = await approvedRun(initiator, await t.signIn('approver'), 'Reads test', [
        row('RD-1'),
        row('RD-2'),
        row('RD-3'),
      ]);
      const clock = new TestClock(new Date());
      const sandbox = createSandboxBackend({ db: t.db, orgId: t.orgId, clock });
      const read: string[] = [];
      const counting: CustodyBackend = {
        ...sandbox,
        async getTransaction(ctx, id) {
          read.push(id);
          return sandbox.getTransaction(ctx, id);
        },
      };
      const executor = executorOver(t, clock, counting);
      await executor.pass();
      const sent = await loadRun(t.db, runId);
      expect(sent?.rows.map((r) => r.status)).toEqual(['SUBMITTED', 'SUBMITTED', 'SUBMITTED']);
      // Waiting for approval: each read once, and approved as the run was.
      await executor.pass();
      expect(read.sort()).toEqual(sent?.rows.map((r) => r.transactionId).sort());
      // On their way (approved, not ended): a pass reads none of them.
      read.length = 0;
      await executor.pass();
      expect(read).toEqual([]);
      await driveUntil(t, executor, clock, runId, 'COMPLETED');
      // Each once more, when it ended.
      expect(read.sort()).toEqual(sent?.rows.map((r) => r.transactionId).sort());
    },
  );
});
