import { expect, test } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';

test.describe('Bank accounts page', () => {
  test('lists accounts with masked numbers and passes an axe scan', async ({ page, request }) => {
    const api = await request.get('/api/external/bank_accounts/?limit=20');
    expect(api.ok()).toBe(true);
    const { results } = (await api.json()) as {
      results: Array<{ accountNumber: string; routingNumber?: string | null }>;
    };

    await page.goto('/transactions');
    await page.getByRole('link', { name: 'Bank accounts' }).click();
    await expect(page).toHaveURL(/\/bank-accounts$/);
    const table = page.getByRole('table', { name: 'Bank accounts' });
    await expect(table.locator('tbody tr')).toHaveCount(Math.min(20, results.length));
    await expect(table).toContainText('•••• ');

    const html = await page.content();
    for (const account of results) {
      expect(html).not.toContain(account.accountNumber);
      if (account.routingNumber && account.routingNumber.length > 4)
        expect(html).not.toContain(account.routingNumber);
    }
    await expectNoAxeViolations(page);
  });

  test('filters by status and payment method, held in the URL', async ({ page }) => {
    await page.goto('/bank-accounts');
    await page.getByLabel('Status').selectOption('APPROVED');
    await page.getByLabel('Payment method').selectOption('SEPA');
    await expect(page).toHaveURL(/status=APPROVED/);
    await expect(page).toHaveURL(/paymentMethod=SEPA/);
    const rows = page.getByRole('table', { name: 'Bank accounts' }).locator('tbody tr');
    await expect(rows.first()).toBeVisible();
    for (const text of await rows.allInnerTexts()) {
      expect(text).toContain('SEPA');
      expect(text).toContain('Approved');
    }
    await page.goBack();
    await expect(page.getByLabel('Payment method')).toHaveValue('');
    await expect(page.getByLabel('Status')).toHaveValue('APPROVED');
  });

  test('pages forward and back with the browser', async ({ page }) => {
    await page.goto('/bank-accounts');
    const rows = page.getByRole('table', { name: 'Bank accounts' }).locator('tbody tr');
    await expect(rows.first()).toBeVisible();
    const next = page.getByRole('button', { name: 'Next page' });
    const first = await rows.first().getAttribute('data-bank-account-id');
    await next.click();
    await expect(page.getByText('Page 2', { exact: true })).toBeVisible();
    await expect(rows.first()).not.toHaveAttribute('data-bank-account-id', first ?? '');
    await page.goBack();
    await expect(rows.first()).toHaveAttribute('data-bank-account-id', first ?? '');
  });
});
