import { describe, expect } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import {
  createPaymentRun,
  getPaymentRun,
  submitPaymentRun,
} from '#contract/endpoints/payment-runs.ts';
import type { PaymentRun } from '#contract/payment-runs.ts';
import { sendJson } from '../../../test/payment-runs.ts';
import { twoConsolesTest } from '../../../test/two-consoles.ts';

/**
 * Payment runs in upstream mode, console → console over real HTTP: a run is
 * made and checked against the custody API's vaults and contacts, but its
 * submit is refused with the reason, before anything is committed or voted
 * on (the executor that pays approved runs works on the sandbox only).
 */

const upstreamTest = twoConsolesTest();

describe('payment runs in upstream mode', () => {
  upstreamTest('are checked, and refused at submit with the reason', async ({ t, initiator }) => {
    const created = await initiator.json(
      pathOf(createPaymentRun, {}),
      sendJson('POST', {
        name: 'Upstream run',
        rows: [
          {
            kind: 'CRYPTO',
            sourceVaultId: t.fixture.treasury.id,
            contactId: t.fixture.contacts.eth.id,
            asset: 'USDC',
            blockChain: 'ETHEREUM',
            amount: '3',
            reference: 'UP-1',
          },
        ],
      }),
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const run = created.body as PaymentRun;
    expect(run).toMatchObject({ status: 'CHECKED', errors: [] });

    const submitted = await initiator.json(
      pathOf(submitPaymentRun, { runId: run.id }),
      sendJson('POST'),
    );
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(409);
    expect(submitted.body).toMatchObject({ code: 'CONFLICT' });
    expect((submitted.body as { message: string }).message).toMatch(/upstream/);
    // Nothing was committed: the run is still a checked draft, to be paid another way.
    const after = await initiator.json(pathOf(getPaymentRun, { runId: run.id }));
    expect(after.body).toMatchObject({ status: 'CHECKED' });
  });
});
