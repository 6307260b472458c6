import { approvalCard } from '../src/contract/endpoints/approval-cards.ts';
import { decideApprovable } from '../src/contract/endpoints/approvables.ts';
import {
  createPaymentRun,
  getPaymentRun,
  submitPaymentRun,
} from '../src/contract/endpoints/payment-runs.ts';
import { pathOf } from '../src/contract/endpoint.ts';
import { cmp, mul } from '../src/contract/decimal.ts';
import { paths } from '../src/contract/paths.ts';
import type { PaymentRun } from '../src/contract/payment-runs.ts';
import { keepAliveAgent } from './load.ts';
import type { BenchSection } from './section.ts';
import { ServerHost } from './server-host.ts';
import { callJson, signInAsDemo } from './session.ts';

/**
 * A payment run of 1,000 rows through the real server, as a person makes it:
 * created from JSON (every row checked and simulated against the sandbox:
 * vault, asset, address, balance, fees, earlier runs' references), submitted
 * (judged by the policy at its total), approved by another member, then paid
 * by the server's own executor to the end: each row's transaction created,
 * approved on the run's approval and taken through its lifecycle by the
 * sandbox's simulator at the server's time scale (SANDBOX_TIME_SCALE, 1 by
 * default). The figures are wall-clock times of each step.
 */

const ROWS = 1000;
const AMOUNT = '0.01';
/** A checksummed Ethereum address of nobody's: a typed-address row. */
const ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const POLL_MS = 1000;
const DEADLINE_MS = 30 * 60 * 1000;

export const paymentRunExecuteSection: BenchSection = {
  name: 'payment-run-execute',
  about: `a payment run of ${ROWS.toLocaleString('en')} rows created and checked, approved and executed to the end by the server`,
  async run({ progress }) {
    const host = new ServerHost();
    const data: Record<string, unknown> = {};
    try {
      const driver = await host.prepare();
      const url = await host.start();
      progress(`server at ${url} (${driver}, seeded)`);
      data.driver = driver;
      const agent = keepAliveAgent(2);
      const initiator = await signInAsDemo(agent, url, 'initiator');
      const approver = await signInAsDemo(agent, url, 'approver');

      // A seeded vault holding enough USDC on Ethereum for every row.
      const { body: vaults } = await callJson<{ results: Array<{ id: string }> }>(
        agent,
        initiator,
        { method: 'GET', path: `${paths.vaults()}?limit=100` },
      );
      let source: string | undefined;
      for (const vault of vaults.results) {
        const { body } = await callJson<Record<string, Record<string, string>>>(agent, initiator, {
          method: 'GET',
          path: paths.vaultBalances(vault.id),
        });
        if (cmp(body.USDC?.ETHEREUM ?? '0', mul(AMOUNT, String(ROWS * 2))) >= 0) {
          source = vault.id;
          break;
        }
      }
      if (!source) throw new Error('no seeded vault holds enough USDC on Ethereum');

      const rows = Array.from({ length: ROWS }, (_, i) => ({
        kind: 'CRYPTO',
        sourceVaultId: source,
        address: ADDRESS,
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount: AMOUNT,
        reference: `BENCH-${Date.now()}-${i + 1}`,
      }));
      const created = await callJson<PaymentRun>(agent, initiator, {
        method: 'POST',
        path: pathOf(createPaymentRun, {}),
        body: JSON.stringify({ name: `Bench run of ${ROWS}`, rows }),
      });
      const run = created.body;
      if (run.errors.length > 0)
        throw new Error(`the run has check errors: ${run.errors[0]?.message ?? ''}`);
      progress(`created and checked ${ROWS} rows in ${created.ms.toFixed(0)} ms`);
      data.createAndCheckMs = Math.round(created.ms);

      const submitted = await callJson<PaymentRun>(agent, initiator, {
        method: 'POST',
        path: pathOf(submitPaymentRun, { runId: run.id }),
      });
      data.submitMs = Math.round(submitted.ms);
      const card = await callJson<{ digest: string }>(agent, approver, {
        method: 'GET',
        path: pathOf(approvalCard, { entityId: run.id }),
      });
      const approved = await callJson<{ status: string }>(agent, approver, {
        method: 'POST',
        path: pathOf(decideApprovable, { entityId: run.id }),
        body: JSON.stringify({ action: 'approve', intent: { digest: card.body.digest } }),
      });
      if (approved.body.status !== 'APPROVED')
        throw new Error(`the run is ${approved.body.status} after one approval`);
      progress(`submitted in ${submitted.ms.toFixed(0)} ms, approved; executing…`);

      const started = performance.now();
      let sentMs: number | null = null;
      let last: PaymentRun = run;
      while (performance.now() - started < DEADLINE_MS) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        last = (
          await callJson<PaymentRun>(agent, initiator, {
            method: 'GET',
            path: pathOf(getPaymentRun, { runId: run.id }),
          })
        ).body;
        const pending = last.rows.filter((r) => r.status === 'PENDING').length;
        if (pending === 0 && sentMs === null) sentMs = performance.now() - started;
        if (last.status === 'COMPLETED' || last.status === 'PARTIALLY_FAILED') break;
      }
      const endMs = performance.now() - started;
      const byStatus: Record<string, number> = {};
      for (const r of last.rows) byStatus[r.status] = (byStatus[r.status] ?? 0) + 1;
      data.executeToSentMs = sentMs === null ? null : Math.round(sentMs);
      data.executeToEndMs = Math.round(endMs);
      data.status = last.status;
      data.rows = byStatus;
      agent.destroy();
      const text = [
        `${driver}; ${ROWS} rows of ${AMOUNT} USDC to a typed address, one source vault`,
        `create + check (one request): ${data.createAndCheckMs as number} ms`,
        `submit: ${data.submitMs as number} ms`,
        `executed: every row sent after ${sentMs === null ? '—' : (sentMs / 1000).toFixed(1)} s, run ${last.status} after ${(endMs / 1000).toFixed(1)} s`,
        `rows: ${JSON.stringify(byStatus)}`,
      ].join('\n');
      return { text, data };
    } finally {
      await host.cleanup().catch((error: unknown) => progress(`cleaning up: ${String(error)}`));
      await host.terminate();
    }
  },
};
