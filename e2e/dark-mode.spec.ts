import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { SIGNED_IN_PAGES } from './pages.ts';

/** With the system in dark mode, the console is dark and every page still passes axe (contrast included). */
test.use({ colorScheme: 'dark' });

for (const { path, ready } of SIGNED_IN_PAGES) {
  test(`${path} is dark and passes an axe scan`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole(ready.role, { name: ready.name }).first()).toBeVisible();
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    // The page's background is the dark end of the scale.
    expect(background).not.toBe('rgb(248, 250, 252)');
    expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(
      true,
    );
    await expectNoAxeViolations(page);
  });
}

test('a transaction page is dark and passes an axe scan', async ({ page }) => {
  await page.goto('/transactions');
  const first = page.getByRole('table', { name: 'Transactions' }).locator('tbody tr').first();
  await first.getByRole('link').first().click();
  await expect(page.getByRole('region', { name: 'Status timeline' })).toBeVisible();
  await page.screenshot({ path: 'test-results/dark-transaction.png' });
  await expectNoAxeViolations(page);
});

test('the webhooks page is dark and passes an axe scan', async ({ page }) => {
  await page.goto('/settings/webhooks');
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('the sign-in page is dark and passes an axe scan', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);
  await context.close();
});
