import type { Page } from '@playwright/test';
import { formatUsd } from '../src/contract/decimal-format.ts';
import { expect, test, type WorkerWorld } from './auth.ts';
import { expectHydrated } from './keyboard.ts';
import { expectNoAxeViolations } from './axe.ts';
import { approveByApi, memberPage } from './transfers.ts';

/**
 * The overview (the home page) against the real server (SANDBOX_TIME_SCALE
 * 600): its figures, its charts as tables, and its totals following a
 * transfer through its lifecycle without a reload.
 */

/** 0.01 ETH from the worker's funded vault to its approved Ethereum contact. */
async function payContact(page: Page, baseURL: string, world: WorkerWorld): Promise<string> {
  const session = (await (await page.request.get('/auth/session')).json()) as { csrfToken: string };
  const response = await page.request.post('/api/external/transactions/', {
    headers: { Origin: new URL(baseURL).origin, 'X-CSRF-Token': session.csrfToken },
    data: {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: world.funded.id },
      destination: { type: 'CONTACT', id: world.ethereum.id },
      amount: '0.01',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      memo: `overview ${Date.now()}`,
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

test.describe('Overview', () => {
  test('the home page shows the holdings, waits, flows and charts, each chart also as a table; the first HTML carries the figures and tables, the charts are drawn after', async ({
    page,
  }) => {
    const response = await page.request.get('/', { headers: { accept: 'text/html' } });
    expect(response.status()).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/data-testid="total-usd"[^>]*>[\d,]+\.\d{2} USD</);
    expect(html).toContain('Holdings by vault, largest first');
    expect(html).toContain('Holdings by asset: units held, value in USD and share of the total');
    // Neither chart is in it: their code loads once the page is there.
    expect(html).not.toContain('aria-label="Holdings by asset:');
    expect(html).not.toContain('aria-label="Completed outflow per day');

    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
    await expect(
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Overview' }),
    ).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('total-usd')).toHaveText(/^[\d,]+\.\d{2} USD$/);
    await expect(page.getByTestId('priced-at')).toContainText('sandbox’s reference prices');
    // An admin decides: the inbox's count and the way to it.
    await expect(page.getByTestId('waiting-count')).toHaveText(/^\d+$/);
    await expect(page.getByRole('link', { name: 'Open the approvals inbox' })).toBeVisible();
    await expect(page.getByRole('img', { name: /^Holdings by asset:/ })).toBeVisible();
    await expect(
      page.getByRole('img', { name: /^Completed outflow per day over the last 30 days/ }),
    ).toBeVisible();
    await expectHydrated(page);
    await expectNoAxeViolations(page);

    // The chart's figures as a table, opened from the keyboard.
    const disclosure = page.getByText('Holdings by asset as a table');
    await disclosure.focus();
    await page.keyboard.press('Enter');
    const table = page.getByRole('table', { name: /Holdings by asset: units held/ });
    await expect(table).toBeVisible();
    await expect(table.getByRole('rowheader', { name: 'ETH', exact: true })).toBeVisible();
    const outflow = page.getByText('Outflow per day as a table');
    await outflow.focus();
    await page.keyboard.press('Enter');
    await expect(
      page.getByRole('table', { name: /Completed outflow per day/ }).locator('tbody tr'),
    ).toHaveCount(30);
    await expectNoAxeViolations(page);

    // A vault's row leads to its page: whichever vault comes first.
    const vault = page.getByRole('region', { name: 'Holdings by vault' }).getByRole('link').first();
    const name = (await vault.textContent()) ?? '';
    await vault.click();
    await expect(page.getByRole('heading', { name, level: 1, exact: true })).toBeVisible();
  });

  test('the totals move when a transfer completes, without a reload', async ({
    page,
    browser,
    baseURL,
    world,
  }) => {
    // Up to 25 s of lifecycle and a refresh every 10 s after it.
    test.slow();
    await page.goto('/');
    const total = page.getByTestId('total-usd');
    await expect(total).toHaveText(/USD$/);
    await expectHydrated(page);
    const before = await total.textContent();
    // The same document throughout: a reload would lose this mark.
    await page.evaluate(() => {
      (window as unknown as { overviewMark: number }).overviewMark = 1;
    });

    const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
    const id = await payContact(initiator, baseURL ?? '', world);
    const approver = await memberPage(browser, 'approver', baseURL ?? '');
    await approveByApi(approver, baseURL ?? '', id);
    await expect
      .poll(
        async () =>
          (
            (await (await initiator.request.get(`/api/external/transactions/${id}/`)).json()) as {
              status: string;
            }
          ).status,
        { timeout: 40_000 },
      )
      .toBe('COMPLETED');

    // Completed: the page, re-reading on its own, shows what the server now says, not what it said.
    // (Seeded transactions complete meanwhile too: the page follows the server, whatever moved it.)
    await expect
      .poll(
        async () => {
          const now = (await (await page.request.get('/api/console/overview/')).json()) as {
            totalUsd: string;
          };
          return (await total.textContent()) === `${formatUsd(now.totalUsd)} USD`;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await expect(total).not.toHaveText(before ?? '');
    expect(
      await page.evaluate(() => (window as unknown as { overviewMark?: number }).overviewMark),
    ).toBe(1);
    await initiator.context().close();
    await approver.context().close();
  });

  test.describe('as a viewer', () => {
    test.use({ role: 'viewer' });

    test('a viewer sees the holdings but no inbox figures', async ({ page }) => {
      await page.goto('/');
      await expect(page.getByTestId('total-usd')).toBeVisible();
      await expect(page.getByTestId('waiting-count')).toHaveCount(0);
      await expectNoAxeViolations(page);
    });
  });
});
