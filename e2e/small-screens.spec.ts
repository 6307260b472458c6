import type { Page } from '@playwright/test';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { SIGNED_IN_PAGES } from './pages.ts';

/**
 * Each page fits the screen it is opened on: nothing makes the page pan
 * sideways (a wide table scrolls inside its own region instead), each page
 * passes an axe scan at a phone's width, and the transactions table shows
 * all its columns on a desktop screen.
 */

async function pageWidth(page: Page) {
  return page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
}

/**
 * The audit log filtered to the signed-in member's own entries: the same
 * layout, but a page of the whole organization's log, scanned by axe on a
 * loaded machine, ran past a story's time.
 */
async function ownAuditEntries(page: Page): Promise<string> {
  const session = (await (await page.request.get('/auth/session')).json()) as {
    member: { id: string };
  };
  return `/audit?actorId=${encodeURIComponent(session.member.id)}`;
}

test.describe('at 390 px wide', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const entry of SIGNED_IN_PAGES) {
    const { path, ready } = entry;
    test.describe(() => {
      test.use({ role: 'member' in entry ? entry.member : 'admin' });
      test(`${path} is no wider than the screen and passes an axe scan`, async ({ page }) => {
        await page.goto(path === '/audit' ? await ownAuditEntries(page) : path);
        await expect(page.getByRole(ready.role, { name: ready.name }).first()).toBeVisible();
        const { scroll, viewport } = await pageWidth(page);
        expect(
          scroll,
          `${path} is ${scroll} px wide on a ${viewport} px screen`,
        ).toBeLessThanOrEqual(viewport);
        // The phone's layout has its own menu, cards and labels: scanned here, the desktop's in dark-mode.spec.ts.
        await expectNoAxeViolations(page);
      });
    });
  }

  test('a transaction page is no wider than the screen and passes an axe scan', async ({
    page,
  }) => {
    await page.goto('/transactions');
    const first = page.getByRole('table', { name: 'Transactions' }).locator('tbody tr').first();
    await first.getByRole('link').first().click();
    await expect(page.getByRole('region', { name: 'Status timeline' })).toBeVisible();
    const { scroll, viewport } = await pageWidth(page);
    expect(scroll).toBeLessThanOrEqual(viewport);
    await expectNoAxeViolations(page);
  });
});

test.describe('at 1440 px wide', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the transactions table shows every column without scrolling', async ({ page }) => {
    await page.goto('/transactions');
    const region = page.getByRole('region', { name: 'Transactions table' });
    await expect(region.locator('tbody tr').first()).toBeVisible();
    const { clientWidth, scrollWidth } = await region.evaluate((el) => ({
      clientWidth: el.clientWidth,
      scrollWidth: el.scrollWidth,
    }));
    expect(scrollWidth, 'the table fits its region').toBeLessThanOrEqual(clientWidth);
  });
});
