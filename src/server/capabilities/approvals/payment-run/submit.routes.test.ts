import { describe, expect } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { createPaymentRun, submitPaymentRun } from '#contract/endpoints/payment-runs.ts';
import type { PaymentRun } from '#contract/payment-runs.ts';
import { appTest } from '../../../test/app-test.ts';
import { createEngineFixture } from '../../../test/engine-test-app.ts';
import { sendJson } from '../../../test/payment-runs.ts';
import { statementsDuring } from '../../../test/statement-count.ts';

/**
 * A run's submit and its approval read its rows once each, however many rows
 * it has: a 1,000-row run read whole several times per request was seconds
 * on a loaded machine.
 */

const runTest = appTest.extend('f', { scope: 'file' }, ({ t }) =>
  createEngineFixture(t.db, t.orgId),
);

const ROWS = 1000;

/** Statements that read a run's rows whole: every row of one run, not a page, a count or a filter. */
const wholeRowReads = (statements: readonly string[]) =>
  statements.filter(
    (s) =>
      /^\s*select/i.test(s) &&
      /from "console"\."payment_run_rows" where "console"\."payment_run_rows"\."run_id" = \$1( order by [^ ]+ asc)?$/.test(
        s.trim(),
      ),
  );

describe('payment run reads', () => {
  runTest(
    'submitting and approving a 1,000-row run read its rows once per request',
    async ({ t, f, initiator, approver }) => {
      const rows = Array.from({ length: ROWS }, (_, i) => ({
        kind: 'CRYPTO',
        sourceVaultId: f.treasury.id,
        address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount: '0.01',
        reference: `READS-${i + 1}`,
      }));
      const created = await initiator.json(
        pathOf(createPaymentRun, {}),
        sendJson('POST', { name: 'Reads', rows }),
      );
      expect(created.status, JSON.stringify(created.body).slice(0, 500)).toBe(201);
      const runId = (created.body as PaymentRun).id;

      let submitted: Awaited<ReturnType<typeof initiator.json>> | undefined;
      const submit = await statementsDuring(t.db, async () => {
        submitted = await initiator.json(pathOf(submitPaymentRun, { runId }), sendJson('POST'));
      });
      expect(submitted?.status, JSON.stringify(submitted?.body).slice(0, 500)).toBe(200);
      expect(submitted?.body).toMatchObject({ id: runId, status: 'PENDING_APPROVAL' });
      expect((submitted?.body as PaymentRun).rows).toHaveLength(ROWS);

      const card = await approver.json(pathOf(approvalCard, { entityId: runId }));
      const { digest } = card.body as { digest: string };
      let approved: Awaited<ReturnType<typeof approver.json>> | undefined;
      const approve = await statementsDuring(t.db, async () => {
        approved = await approver.json(
          pathOf(decideApprovable, { entityId: runId }),
          sendJson('POST', { action: 'approve', intent: { digest } }),
        );
      });
      expect(approved?.body).toMatchObject({ status: 'APPROVED' });

      expect(wholeRowReads(submit).length).toBeLessThanOrEqual(1);
      expect(wholeRowReads(approve).length).toBeLessThanOrEqual(1);
    },
  );
});
