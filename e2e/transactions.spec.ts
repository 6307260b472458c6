import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { focusLive } from './keyboard.ts';

// The seed's history is read here (pages of it, weeks old, of every status): only the seed has
// so much, and no story adds to the old end, so the story reads it as an admin of the whole
// organization; the worker's other members see only their own sub-organization.
test.use({ role: 'orgAdmin' });

test.describe('Transactions page', () => {
  test('shows seeded transactions and passes an axe scan', async ({ page }) => {
    await page.goto('/transactions');
    await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible();
    const table = page.getByRole('table', { name: 'Transactions' });
    await expect(table.locator('tbody tr')).toHaveCount(20);
    await expect(
      page.getByRole('status').filter({ hasText: 'Showing 20 transactions, page 1.' }),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Transactions' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expectNoAxeViolations(page);
  });

  test('filters are held in the URL and survive a reload', async ({ page }) => {
    await page.goto('/transactions');
    await page.getByLabel('Status').selectOption('COMPLETED');
    await expect(page).toHaveURL(/status=COMPLETED/);
    const rows = page.getByRole('table', { name: 'Transactions' }).locator('tbody tr');
    await expect(rows.first()).toBeVisible();
    const statuses = page.getByRole('table', { name: 'Transactions' }).locator('[data-status]');
    // Until the filtered page arrives the previous rows stay on screen, dimmed: wait for it.
    await expect(async () =>
      expect(
        new Set(await statuses.evaluateAll((els) => els.map((e) => e.getAttribute('data-status')))),
      ).toEqual(new Set(['COMPLETED'])),
    ).toPass();

    await page.getByLabel('Category').selectOption('STAKE');
    await expect(page).toHaveURL(/category=STAKE/);
    await page.reload();
    await expect(page.getByLabel('Status')).toHaveValue('COMPLETED');
    await expect(page.getByLabel('Category')).toHaveValue('STAKE');
    await expect(rows.first()).toBeVisible();

    await page.getByRole('button', { name: 'Reset filters' }).click();
    await expect(page).not.toHaveURL(/status=/);
    await expect(page.getByLabel('Status')).toHaveValue('');
  });

  test('an external ID with no match shows the empty state, cleared by keyboard', async ({
    page,
  }) => {
    await page.goto('/transactions');
    const externalId = page.getByLabel('External ID');
    await externalId.fill(`no-such-id-${Date.now()}`);
    await externalId.press('Enter');
    await expect(page.getByText('No transactions match these filters')).toBeVisible();
    await expectNoAxeViolations(page);
    await focusLive(page.getByRole('button', { name: 'Clear filters' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('table', { name: 'Transactions' }).locator('tbody tr')).toHaveCount(
      20,
    );
  });

  test('next and previous pages, and the back button walks back through them', async ({ page }) => {
    await page.goto('/transactions');
    const table = page.getByRole('table', { name: 'Transactions' });
    const firstId = () => table.locator('tbody tr').first().getAttribute('data-transaction-id');
    await expect(table.locator('tbody tr')).toHaveCount(20);
    const page1 = await firstId();
    await expect(page.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByText('Page 2', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/cursor=/);
    const page2 = await firstId();
    expect(page2).not.toBe(page1);

    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(page.getByText('Page 3', { exact: true })).toBeVisible();
    const page3 = await firstId();
    expect(new Set([page1, page2, page3]).size).toBe(3);

    await page.goBack();
    await expect(page.getByText('Page 2', { exact: true })).toBeVisible();
    await expect(table.locator('tbody tr').first()).toHaveAttribute(
      'data-transaction-id',
      page2 ?? '',
    );

    // Previous works after a reload, because the page stack lives in the URL.
    await page.reload();
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect(page.getByText('Page 1', { exact: true })).toBeVisible();
    await expect(table.locator('tbody tr').first()).toHaveAttribute(
      'data-transaction-id',
      page1 ?? '',
    );
  });

  test('a tampered cursor shows an error with a way back', async ({ page }) => {
    await page.goto('/transactions?cursor=not-a-real-cursor');
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Transactions could not be loaded');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Go to first page' }).click();
    await expect(page.getByRole('table', { name: 'Transactions' }).locator('tbody tr')).toHaveCount(
      20,
    );
  });

  test('the skip link moves focus to the main content', async ({ page }) => {
    await page.goto('/transactions');
    await expect(page.getByRole('table', { name: 'Transactions' })).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/#main$/);
  });
});
