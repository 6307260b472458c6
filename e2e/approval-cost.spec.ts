import type { Page } from '@playwright/test';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { expectHydrated } from './keyboard.ts';
import { expectBulkApproved } from './inbox.ts';
import { createTransfer, memberPage } from './transfers.ts';
import { BOTH_WIDTHS } from './widths.ts';

/**
 * What approving costs, where the decision is made: the approve dialog of a
 * transfer names the estimated fee (asset, USD, tier) and the total leaving
 * in USD; the bulk dialog sums the selection in USD per asset. Each story
 * makes its own transfers (an amount no other story sends) and finds them
 * by id.
 */

test.use({ role: 'approver' });

/** An amount no other story sends: its last digits from the clock and a random draw. */
function uniqueAmount(): string {
  const digits = `${Date.now() % 1000}${Math.floor(Math.random() * 1000)}`.padStart(6, '0');
  return `0.001${digits}`;
}

async function subOrgOf(page: Page, id: string): Promise<string> {
  const res = await page.request.get(`/api/external/transactions/${id}/`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { subOrgId: string }).subOrgId;
}

const row = (page: Page, id: string) => page.locator(`[data-approval-id="${id}"]`);
const USD = /≈ [\d,]+\.\d\d USD/;

for (const width of BOTH_WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('the approve dialog names the estimated fee of the tier and the total leaving in USD', async ({
      page,
      browser,
      baseURL,
    }) => {
      // Two members' browsers and an axe scan.
      test.slow();
      const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
      const id = await createTransfer(initiator, baseURL ?? '', {
        memo: 'cost in the approve dialog',
        amount: uniqueAmount(),
        feeTier: 'MEDIUM',
        from: 'apart',
      });
      await initiator.context().close();

      await page.goto(`/transactions/${id}`);
      await expectHydrated(page);
      await page.getByRole('button', { name: 'Approve…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Approve this transaction?' });
      const fee = dialog.getByTestId('approval-fee');
      await expect(fee).toContainText(/[\d.]+ ETH/);
      await expect(fee).toContainText(USD);
      await expect(fee).toContainText('Medium tier, estimated now');
      const total = dialog.getByTestId('approval-total');
      await expect(total).toContainText(/[\d.]+ ETH/);
      await expect(total).toContainText(/≈ [\d,]+\.\d\d USD in all, amount and fee/);
      await expectNoAxeViolations(page);
    });

    test('the bulk dialog sums the selection in USD, per asset', async ({
      page,
      browser,
      baseURL,
    }) => {
      // Two members' browsers, two transfers and an axe scan.
      test.slow();
      const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
      const ids = [
        await createTransfer(initiator, baseURL ?? '', {
          memo: 'bulk cost one',
          amount: uniqueAmount(),
          from: 'apart',
        }),
        await createTransfer(initiator, baseURL ?? '', {
          memo: 'bulk cost two',
          amount: uniqueAmount(),
          from: 'apart',
        }),
      ];
      const subOrgId = await subOrgOf(initiator, ids[0] ?? '');
      await initiator.context().close();

      await page.goto(`/approvals?subOrg=${subOrgId}`);
      await expectHydrated(page);
      for (const id of ids) await row(page, id).getByRole('checkbox').check();
      const bulk = page.getByRole('group', { name: 'Approve several transactions' });
      await expect(bulk).toContainText('2 selected');
      await bulk.getByRole('button', { name: 'Approve selected…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Approve 2 transactions?' });
      const sum = dialog.getByRole('region', { name: 'What leaves in all' });
      await expect(sum.getByRole('listitem')).toHaveCount(1);
      await expect(sum.getByRole('listitem')).toContainText(
        /^[\d.]+ ETH on Ethereum \([\d.]+ sent \+ [\d.]+ in fees\) ≈ [\d,]+\.\d\d USD$/,
      );
      await expect(sum.getByTestId('bulk-cost-usd')).toHaveText(
        /^In USD: ≈ [\d,]+\.\d\d USD \(≈ [\d,]+\.\d\d USD sent \+ ≈ [\d,]+\.\d\d USD in fees\)$/,
      );
      // Each item's own fee and total, beside the sum.
      for (const id of ids)
        await expect(
          dialog.locator(`[data-batch-item="${id}"]`).getByTestId('approval-total'),
        ).toContainText(USD);
      await expectNoAxeViolations(page);

      await dialog.getByRole('button', { name: 'Approve 2 transactions' }).click();
      await expectBulkApproved(dialog, 2);
    });
  });
}
