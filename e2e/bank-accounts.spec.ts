import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { expectHydrated } from './keyboard.ts';

// The seed's history is read here (pages of it, weeks old, of every status): only the seed has
// so much, and no story adds to the old end, so the story reads it as an admin of the whole
// organization; the worker's other members see only their own sub-organization.
test.use({ role: 'orgAdmin' });

interface FullNumbers {
  accountNumber: string | null;
  routingNumber?: string | null;
}

/**
 * The audited reveal, as an admin's session (the page's cookie jar) calls it:
 * a mutation, so a POST from the console's origin with the session's CSRF token.
 */
async function reveal(
  request: APIRequestContext,
  id: string,
  baseURL: string | undefined,
): Promise<FullNumbers> {
  const session = (await (await request.get('/auth/session')).json()) as { csrfToken: string };
  const response = await request.post(`/api/console/bank_accounts/${id}/reveal/`, {
    headers: { Origin: new URL(baseURL ?? '').origin, 'X-CSRF-Token': session.csrfToken },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as FullNumbers;
}

test.describe('Bank accounts page', () => {
  test('lists accounts with masked numbers and passes an axe scan', async ({ page, baseURL }) => {
    const api = await page.request.get('/api/external/bank_accounts/?limit=20');
    expect(api.ok()).toBe(true);
    const { results: listed } = (await api.json()) as { results: Array<{ id: string }> };
    // The list is masked for staff; the full numbers only come from the audited reveal.
    const full = await Promise.all(listed.map(({ id }) => reveal(page.request, id, baseURL)));

    await page.goto('/transactions');
    await expectHydrated(page);
    await page.getByRole('link', { name: 'Bank accounts' }).click();
    await expect(page).toHaveURL(/\/bank-accounts$/);
    const table = page.getByRole('table', { name: 'Bank accounts' });
    await expect(table.locator('tbody tr')).toHaveCount(Math.min(20, listed.length));
    await expect(table).toContainText('•••• ');

    const html = await page.content();
    for (const account of full) {
      if (account.accountNumber) expect(html).not.toContain(account.accountNumber);
      if (account.routingNumber && account.routingNumber.length > 4)
        expect(html).not.toContain(account.routingNumber);
    }
    await expectNoAxeViolations(page);
  });

  test("reveals one account's full numbers in place until hidden again", async ({
    page,
    baseURL,
  }) => {
    await page.goto('/bank-accounts?paymentMethod=US_ACH');
    const row = page.getByRole('table', { name: 'Bank accounts' }).locator('tbody tr').first();
    const id = await row.getAttribute('data-bank-account-id');
    const full = await reveal(page.request, id ?? '', baseURL);
    expect(full.accountNumber).toMatch(/^\d{4,17}$/);
    await expect(row).not.toContainText(full.accountNumber ?? '');

    await row.getByRole('button', { name: /^Reveal full numbers of / }).click();
    await expect(row).toContainText(full.accountNumber ?? '');
    await expect(row).toContainText(full.routingNumber ?? '');
    await expectNoAxeViolations(page);
    await row.getByRole('button', { name: /^Hide full numbers of / }).click();
    await expect(row).not.toContainText(full.accountNumber ?? '');
    expect(await page.content()).not.toContain(full.accountNumber ?? '');
  });

  test.describe('as a viewer', () => {
    test.use({ role: 'viewer' });
    test('is not offered Reveal', async ({ page }) => {
      await page.goto('/bank-accounts');
      const table = page.getByRole('table', { name: 'Bank accounts' });
      await expect(table.locator('tbody tr').first()).toBeVisible();
      await expect(table.getByRole('button', { name: /Reveal/ })).toHaveCount(0);
      await expect(table.getByRole('columnheader', { name: 'Full numbers' })).toHaveCount(0);
    });
  });

  test('filters by status and payment method, held in the URL', async ({ page }) => {
    await page.goto('/bank-accounts');
    await page.getByLabel('Status').selectOption('APPROVED');
    await page.getByLabel('Payment method').selectOption('SEPA');
    await expect(page).toHaveURL(/status=APPROVED/);
    await expect(page).toHaveURL(/paymentMethod=SEPA/);
    const table = page.getByRole('table', { name: 'Bank accounts' });
    const rows = table.locator('tbody tr');
    // The previous rows stay on screen (dimmed, aria-busy) until the filtered page arrives,
    // and the address changes before the new page is loaded: wait until every row matches.
    await expect(async () => {
      const texts = await rows.allInnerTexts();
      expect(texts.length).toBeGreaterThan(0);
      for (const text of texts) {
        expect(text).toContain('SEPA');
        expect(text).toContain('Approved');
      }
    }).toPass();
    await expect(table).toHaveAttribute('aria-busy', 'false');
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
