import type { Request } from '@playwright/test';
import { expect, test } from './auth.ts';

/**
 * How /transactions loads, as the browser's network log shows it: the HTML
 * names the session and the list for preload and the SPA uses those answers,
 * the page's data does not wait for the session, and reference data (vaults,
 * assets, sub-organizations) is asked for once however the member moves around.
 * Order is proven by holding answers back until the other request is seen,
 * never by timing.
 */

const apiPath = (request: Request) => new URL(request.url()).pathname;
const isList = (request: Request) => apiPath(request) === '/api/external/transactions/';

test('the list is requested while the session is still unanswered', async ({ page }) => {
  let listRequested!: () => void;
  const listSeen = new Promise<void>((resolve) => (listRequested = resolve));
  page.on('request', (request) => {
    if (isList(request)) listRequested();
  });
  // The session's answer is held until the list has been asked for: a page
  // that waited for the session before asking for its data would never get
  // either, and its rows would never show.
  await page.route('**/auth/session', async (route) => {
    await listSeen;
    await route.continue();
  });

  await page.goto('/transactions');
  await expect(
    page.getByRole('table', { name: 'Transactions' }).locator('tbody tr').first(),
  ).toBeVisible();
});

test('the page names its session and list for preload, and the browser asks for each once', async ({
  page,
}) => {
  const asked = new Map<string, number>();
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/auth/'))
      asked.set(url.pathname + url.search, (asked.get(url.pathname + url.search) ?? 0) + 1);
  });

  const response = await page.goto('/transactions');
  const html = (await response?.text()) ?? '';
  const list = '/api/external/transactions/?limit=20';
  for (const url of ['/auth/session', list])
    expect(html).toContain(`<link rel="preload" as="fetch" crossorigin href="${url}">`);
  await expect(
    page.getByRole('table', { name: 'Transactions' }).locator('tbody tr').first(),
  ).toBeVisible();
  await page.waitForLoadState('networkidle');

  // The SPA asks for the same URLs with fetch: had the preloaded answers not
  // been used, each would have been requested twice.
  expect(asked.get('/auth/session')).toBe(1);
  expect(asked.get(list)).toBe(1);
});

test('a signed-out visitor gets no data preloads and still lands on the sign-in page', async ({
  page,
}) => {
  await page.context().clearCookies();
  const response = await page.goto('/transactions');
  expect(await response?.text()).not.toContain('rel="preload" as="fetch"');
  await expect(page).toHaveURL(/\/login/);
});

test('vaults, assets and sub-organizations are fetched once across pages', async ({ page }) => {
  const asked = new Map<string, number>();
  page.on('request', (request) => {
    const path = apiPath(request);
    if (/^\/api\/external\/(vaults|assets|sub_orgs)\/$/.test(path))
      asked.set(path, (asked.get(path) ?? 0) + 1);
  });

  await page.goto('/transactions');
  const rows = page.getByRole('table', { name: 'Transactions' }).locator('tbody tr');
  await expect(rows.first()).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Main' });

  await nav.getByRole('link', { name: 'Bank accounts' }).click();
  await expect(page.getByRole('heading', { name: 'Bank accounts', level: 1 })).toBeVisible();
  await nav.getByRole('link', { name: 'Transactions' }).click();
  await expect(rows.first()).toBeVisible();
  // A transaction's page and back to the list.
  await rows.first().getByRole('link').first().click();
  await expect(page).toHaveURL(/\/transactions\/[^/]+$/);
  await page.goBack();
  await expect(rows.first()).toBeVisible();
  await page.waitForLoadState('networkidle');

  expect(Object.fromEntries(asked)).toEqual({
    '/api/external/vaults/': 1,
    '/api/external/assets/': 1,
    '/api/external/sub_orgs/': 1,
  });
});
