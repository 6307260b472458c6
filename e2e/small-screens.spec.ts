import type { Page } from '@playwright/test';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { openPage, pageWalks } from './pages.ts';

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
  return `?actorId=${encodeURIComponent(session.member.id)}`;
}

async function expectFits(page: Page, what: string) {
  const { scroll, viewport } = await pageWidth(page);
  expect(scroll, `${what} is ${scroll} px wide on a ${viewport} px screen`).toBeLessThanOrEqual(
    viewport,
  );
}

test.describe('at 390 px wide', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  // A walk of a few pages per story (e2e/pages.ts), each loaded at this width, and a
  // transaction's page after the list's.
  for (const walk of pageWalks(4)) {
    test.describe(() => {
      test.use({ role: walk.member });
      test(`${walk.pages.map((p) => p.path).join(', ')}: each no wider than the screen, and passes an axe scan`, async ({
        page,
      }) => {
        // A story's time per page (and per page opened from one), as when each was a story of its own.
        const extra = walk.pages.filter((p) => p.path === '/transactions').length;
        test.setTimeout((walk.pages.length + extra) * 30_000);
        for (const entry of walk.pages) {
          await test.step(entry.path, async () => {
            await openPage(page, entry, entry.path === '/audit' ? await ownAuditEntries(page) : '');
            await expectFits(page, entry.path);
            // The phone's layout has its own menu, cards and labels: scanned here, the desktop's in dark-mode.spec.ts.
            await expectNoAxeViolations(page);
          });
          if (entry.path !== '/transactions') continue;
          await test.step('a transaction page', async () => {
            const first = page
              .getByRole('table', { name: 'Transactions' })
              .locator('tbody tr')
              .first();
            await first.getByRole('link').first().click();
            await expect(page.getByRole('region', { name: 'Status timeline' })).toBeVisible();
            await expectFits(page, 'a transaction page');
            await expectNoAxeViolations(page);
          });
        }
      });
    });
  }
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
