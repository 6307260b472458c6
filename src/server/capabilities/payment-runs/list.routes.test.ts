import { describe, expect } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { createPaymentRun, listPaymentRuns } from '#contract/endpoints/payment-runs.ts';
import type { PaymentRun, PaymentRunList } from '#contract/payment-runs.ts';
import { appTest } from '../../test/app-test.ts';
import { createEngineFixture } from '../../test/engine-test-app.ts';
import { createSubOrg } from '../../test/fixtures.ts';

/** The runs list through the real app: newest first, in the member's scope, without the rows. */

const listTest = appTest.extend('f', { scope: 'file' }, ({ t }) =>
  createEngineFixture(t.db, t.orgId),
);

describe('the payment runs list', () => {
  listTest(
    'names each run with its creator, totals and progress, only in the member’s scope',
    async ({ t, f }) => {
      const initiator = await t.signIn('initiator');
      const row = (reference: string, amount: string, contactId = f.contacts.eth.id) => ({
        kind: 'CRYPTO',
        sourceVaultId: f.treasury.id,
        contactId,
        asset: 'USDC',
        blockChain: 'ETHEREUM',
        amount,
        reference,
      });
      const made: PaymentRun[] = [];
      for (const [name, rows] of [
        ['List test, older', [row('LS-1', '10.5')]],
        ['List test, newer', [row('LS-2', '1'), row('LS-3', '2.25')]],
      ] as const) {
        const created = await initiator.json(pathOf(createPaymentRun, {}), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ name, rows }),
        });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        made.push(created.body as PaymentRun);
        t.authClock.advance(1000);
      }

      const listed = await initiator.json(pathOf(listPaymentRuns, {}));
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      const mine = (listed.body as PaymentRunList).results.filter((r) =>
        made.some((m) => m.id === r.id),
      );
      expect(mine.map((r) => r.name)).toEqual(['List test, newer', 'List test, older']);
      expect(mine[0]).toMatchObject({
        status: 'CHECKED',
        createdById: made[1]?.createdById,
        createdByName: expect.any(String),
        totals: [{ asset: 'USDC', blockChain: 'ETHEREUM', amount: '3.25' }],
        progress: { rows: 2, pending: 2, sent: 0, completed: 0, failed: 0, cancelled: 0 },
      });
      expect(mine[0]).not.toHaveProperty('rows');

      // A member held to another sub-organization is not shown the organization's runs.
      const away = await createSubOrg(t.db, t.orgId, 'Runs list elsewhere');
      const outsider = await t.signIn('admin', { subOrgIds: [away.id] });
      const theirs = await outsider.json(pathOf(listPaymentRuns, {}));
      expect(theirs.status).toBe(200);
      expect(
        (theirs.body as PaymentRunList).results.filter((r) => made.some((m) => m.id === r.id)),
      ).toEqual([]);
    },
  );
});
