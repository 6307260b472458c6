import type { Page } from '@playwright/test';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { decideByApi } from './bank-account-data.ts';
import { expectHydrated } from './keyboard.ts';
import { openPage, pageWalks } from './pages.ts';
import { createTransfer, memberPage } from './transfers.ts';
import { DESKTOP_ONLY } from './widths.ts';

const USD = /≈ [\d,]+\.\d\d USD/;

/** With the system in dark mode, the console is dark and every page still passes axe (contrast included). */
test.use({ colorScheme: 'dark' });

/** Whether the page is drawn in the dark scheme the system asks for. */
async function expectDark(page: Page) {
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  // The page's background is the dark end of the scale.
  expect(background).not.toBe('rgb(248, 250, 252)');
  expect(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches)).toBe(true);
}

// Each signed-in page, a transaction's page after the list's and the webhooks page after the
// audit log: a walk of up to seven pages per story (e2e/pages.ts), each checked and scanned as it
// stands: a story's browser and its first load cost more than a page opened from another.
for (const walk of pageWalks(7)) {
  test.describe(() => {
    test.use({ role: walk.member });
    test(`${walk.pages.map((p) => p.path).join(', ')}: dark, and each passes an axe scan`, async ({
      page,
    }) => {
      // A story's time per page (and per page opened from one), as when each was a story of its own.
      const extra = walk.pages.filter((p) => ['/transactions', '/audit'].includes(p.path)).length;
      test.setTimeout((walk.pages.length + extra) * 30_000);
      for (const entry of walk.pages) {
        await test.step(entry.path, async () => {
          await openPage(page, entry);
          await expectDark(page);
          await expectNoAxeViolations(page);
        });
        // Only an admin of the whole organization reads the audit log and manages webhook endpoints.
        if (entry.path === '/audit')
          await test.step('/settings/webhooks', async () => {
            await expectHydrated(page);
            await page
              .getByRole('navigation', { name: 'Main' })
              .getByRole('link', { name: 'Webhooks' })
              .click();
            await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
            await expectDark(page);
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
          await page.screenshot({ path: 'test-results/dark-transaction.png' });
          await expectNoAxeViolations(page);
        });
      }
    });
  });
}

test('the sign-in page is dark and passes an axe scan', async ({ page }) => {
  // Signed out: the story's page starts signed in, as every story's does.
  await page.context().clearCookies();
  await page.goto('/login');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectDark(page);
  await expectNoAxeViolations(page);
});

/** An amount no other story sends: its last digits from the clock and a random draw. */
function uniqueAmount(): string {
  const digits = `${Date.now() % 1000}${Math.floor(Math.random() * 1000)}`.padStart(6, '0');
  return `0.002${digits}`;
}

// Where the money is decided, in dark mode: a PENDING transfer's page with its approval card, the
// approve dialog with its fee and total, and the inbox's bulk dialog with its sum. The story
// makes its own transfers (amounts no other story sends), finds them by id and declines them
// when done, so they wait on no one after it.
test.describe('deciding, in dark mode', () => {
  test.use({ role: 'approver' });

  for (const width of DESKTOP_ONLY) {
    test.describe(`at ${width} px`, () => {
      test.use({ viewport: { width, height: 900 } });

      test("a PENDING transfer's page with its approval card, its approve dialog with fee and total, and the inbox's bulk approve dialog with its sum in USD pass an axe scan", async ({
        page,
        browser,
        baseURL,
      }) => {
        // Two members' browsers, two transfers and three axe scans.
        test.slow();
        const base = baseURL ?? '';
        const initiator = await memberPage(browser, 'initiator', base);
        const ids = [
          await createTransfer(initiator, base, {
            memo: 'dark approval card',
            amount: uniqueAmount(),
            feeTier: 'MEDIUM',
            from: 'apart',
          }),
          await createTransfer(initiator, base, {
            memo: 'dark bulk two',
            amount: uniqueAmount(),
            from: 'apart',
          }),
        ];
        const { subOrgId } = (await (
          await initiator.request.get(`/api/external/transactions/${ids[0] ?? ''}/`)
        ).json()) as { subOrgId: string | null };
        await initiator.context().close();

        await test.step("the transfer's page and its approve dialog", async () => {
          await page.goto(`/transactions/${ids[0] ?? ''}`);
          await expectHydrated(page);
          const card = page.getByTestId('approval-card');
          await expect(card.getByTestId('card-amount')).toContainText('ETH');
          await expect(page.getByTestId('approval-progress')).toBeVisible();
          await expectDark(page);
          await expectNoAxeViolations(page);

          await page.getByRole('button', { name: 'Approve…' }).click();
          const dialog = page.getByRole('dialog', { name: 'Approve this transaction?' });
          await expect(dialog.getByTestId('approval-fee')).toContainText(USD);
          await expect(dialog.getByTestId('approval-total')).toContainText(USD);
          await expectNoAxeViolations(page);
          await dialog.getByRole('button', { name: 'Cancel' }).click();
          await expect(dialog).toBeHidden();
        });

        await test.step("the inbox's bulk approve dialog", async () => {
          await page.goto(subOrgId ? `/approvals?subOrg=${subOrgId}` : '/approvals');
          await expectHydrated(page);
          for (const id of ids)
            await page.locator(`[data-approval-id="${id}"]`).getByRole('checkbox').check();
          const bulk = page.getByRole('group', { name: 'Approve several transactions' });
          await expect(bulk).toContainText('2 selected');
          await bulk.getByRole('button', { name: 'Approve selected…' }).click();
          const dialog = page.getByRole('dialog', { name: 'Approve 2 transactions?' });
          const sum = dialog.getByRole('region', { name: 'What leaves in all' });
          await expect(sum.getByTestId('bulk-cost-usd')).toContainText(USD);
          for (const id of ids)
            await expect(
              dialog.locator(`[data-batch-item="${id}"]`).getByTestId('approval-total'),
            ).toContainText(USD);
          await expectDark(page);
          await expectNoAxeViolations(page);
          await dialog.getByRole('button', { name: 'Cancel' }).click();
          await expect(dialog).toBeHidden();
        });

        for (const id of ids) await decideByApi(page.request, base, id, 'reject');
      });
    });
  }
});
