import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { approveByApi, createTransfer, memberPage } from './transfers.ts';
import { focusLive } from './keyboard.ts';
import { BOTH_WIDTHS } from './widths.ts';

/**
 * A transfer past its fee tier's usual time, against the real server
 * (SANDBOX_TIME_SCALE 600): a LOW fee transfer whose memo asks the simulator
 * to keep it stuck stays SUBMITTED, and its tier's usual time (seconds at
 * that scale) passes. It is flagged in the list, on its page (which leads to
 * the replacement) and on the overview.
 */
for (const width of BOTH_WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 }, role: 'approver' });

    test('a stuck transfer is flagged slower than usual in the list, on its page and on the overview', async ({
      page,
      browser,
      baseURL,
    }) => {
      // Two members' browsers, three pages each waited on and scanned.
      test.slow();
      const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
      const id = await createTransfer(initiator, baseURL ?? '', {
        feeTier: 'LOW',
        memo: `e2e slow ${width} [simulate:stuck]`,
      });
      await approveByApi(page, baseURL ?? '', id);

      await initiator.goto(`/transactions/${id}`);
      const notice = initiator.getByRole('region', { name: 'Slower than usual' });
      await expect(notice).toBeVisible({ timeout: 20_000 });
      await expect(initiator.getByTestId('slow-notice')).toContainText(
        'At the low fee on Ethereum it would usually have completed by',
      );
      await expect(notice).toContainText('Replace it with a higher fee?');
      await focusLive(notice.getByRole('link', { name: 'Go to Replacement' }));
      await initiator.keyboard.press('Enter');
      await expect(initiator).toHaveURL(/#replacement$/);
      await expect(
        initiator.getByRole('button', { name: 'Replace with a higher fee…' }),
      ).toBeVisible();
      await expectNoAxeViolations(initiator);

      await initiator.goto('/transactions?status=SUBMITTED');
      const row = initiator.locator(`[data-transaction-id="${id}"]`);
      await expect(row.getByTestId('slow-flag')).toHaveText(
        'Slower than usual — replace it with a higher fee?',
      );
      await expectNoAxeViolations(initiator);

      await initiator.goto('/');
      const listed = initiator.getByTestId('slow-transactions');
      await expect(listed.locator(`a[href$="/transactions/${id}"]`)).toBeVisible({
        timeout: 20_000,
      });
      await expect(initiator.getByTestId('slow-count')).not.toHaveText('0');
      await expectNoAxeViolations(initiator);
      await initiator.context().close();
    });
  });
}
