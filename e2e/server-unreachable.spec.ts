import { expect, test } from './auth.ts';
import { expectHydrated } from './keyboard.ts';

// The audit log's code is fetched only when it is opened; an admin of the whole organization reads it.
test.use({ role: 'orgAdmin' });

test('a page whose code cannot be fetched shows the console’s own error, and recovers', async ({
  page,
}) => {
  await page.goto('/transactions');
  await expect(page.getByRole('table', { name: 'Transactions' })).toBeVisible();
  // The link below must be the client's navigation (which needs the page's code), not the
  // server-rendered link's full load, which would be a different story.
  await expectHydrated(page);
  // A mark that a reload would wipe out.
  await page.evaluate(() => ((window as unknown as { stillHere: boolean }).stillHere = true));

  // The server stops answering for the page's code (as when it is down).
  await page.route('**/assets/**', (route) => route.abort('connectionrefused'));
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Audit log' })
    .click();

  const alert = page.getByRole('alert').filter({ hasText: 'This page could not be loaded' });
  await expect(alert).toBeVisible();
  await expect(alert).toContainText('Nothing was sent');
  expect(await page.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(
    true,
  );

  // Back: Try again reloads once the server answers.
  await page.unroute('**/assets/**');
  await alert.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('table', { name: 'Audit log' })).toBeVisible();
  await expect(page).toHaveURL(/\/audit$/);
});
