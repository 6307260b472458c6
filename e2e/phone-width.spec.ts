import type { Page } from '@playwright/test';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { focusLive } from './keyboard.ts';
import { createTransfer, memberPage } from './transfers.ts';
import { BOTH_WIDTHS } from './widths.ts';

/**
 * The signed-in chrome and the approvals inbox on a phone and on a desktop:
 * the header leaves the page most of the screen, its navigation works from
 * the keyboard, and an inbox row shows what moves and how to decide on it.
 */

async function headerShare(page: Page): Promise<number> {
  return page.evaluate(() => {
    const header = document.querySelector('header');
    return (header?.getBoundingClientRect().height ?? 0) / window.innerHeight;
  });
}

for (const width of BOTH_WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 844 } });

    test('the header leaves the page most of the screen, and its navigation works by keyboard', async ({
      page,
    }) => {
      await page.goto('/vaults');
      await expect(page.getByRole('heading', { level: 1, name: 'Vaults' })).toBeVisible();
      // One row on a phone; on a desktop the account's row and the navigation's.
      const most = width >= 1280 ? 0.14 : 0.1;
      expect(
        await headerShare(page),
        `the header takes under ${most * 100}% of the screen`,
      ).toBeLessThan(most);
      const nav = page.getByRole('navigation', { name: 'Main' });
      const transactions = nav.getByRole('link', { name: 'Transactions' });

      if (width >= 1280) {
        // A desktop has room for every link: no menu to open.
        await expect(transactions).toBeVisible();
        await expect(page.getByRole('button', { name: /^Menu/ })).toBeHidden();
        await expectNoAxeViolations(page);
        return;
      }

      const menu = page.getByRole('button', { name: /^Menu/ });
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
      await expect(transactions).toBeHidden();
      // The sandbox badge stays in view: which service money moves on is never behind a menu.
      await expect(page.getByRole('banner').getByText('Sandbox', { exact: true })).toBeVisible();

      await focusLive(menu);
      await page.keyboard.press('Enter');
      await expect(menu).toHaveAttribute('aria-expanded', 'true');
      await expect(transactions).toBeVisible();
      await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
      await expectNoAxeViolations(page);

      // Escape closes it and hands focus back to the button.
      await page.keyboard.press('Tab');
      await page.keyboard.press('Escape');
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
      await expect(menu).toBeFocused();
      await expect(transactions).toBeHidden();

      // A link chosen by keyboard opens its page, closes the menu, and focus lands on the page.
      await page.keyboard.press('Enter');
      await transactions.focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/\/transactions$/);
      await expect(menu).toHaveAttribute('aria-expanded', 'false');
      const heading = page.getByRole('heading', { level: 1, name: 'Transactions' });
      await expect(heading).toBeFocused();
      expect(await headerShare(page)).toBeLessThan(most);
    });

    test.describe('as an approver', () => {
      test.use({ role: 'approver' });

      test('an inbox row shows its value and the way to decide, on screen', async ({
        page,
        browser,
        baseURL,
      }) => {
        // Two members signed in and an axe scan over a long inbox: slow on a busy machine.
        test.slow();
        const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
        // An amount no other story sends, so the row is told apart by what it shows.
        const amount = `0.00${String(Date.now()).slice(-5)}`;
        const id = await createTransfer(initiator, baseURL ?? '', {
          memo: 'phone inbox',
          amount,
          from: 'apart',
        });
        const { subOrgId } = (await (
          await initiator.request.get(`/api/external/transactions/${id}/`)
        ).json()) as { subOrgId: string };
        await initiator.context().close();

        await page.goto(`/approvals?subOrg=${subOrgId}`);
        const row = page.locator(`[data-approval-id="${id}"]`);
        const value = row.getByText(/^[\d.]+ ETH$/);
        await expect(value).toBeVisible();
        await expect(value).toBeInViewport({ ratio: 1 });
        await expect(row.getByText(/^≈ [\d,]+\.\d\d USD$/)).toBeInViewport({ ratio: 1 });
        const decide = row.getByRole('link', { name: /^Review and decide/ });
        await decide.scrollIntoViewIfNeeded();
        await expect(decide).toBeInViewport({ ratio: 1 });
        const { scroll, viewport } = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          viewport: window.innerWidth,
        }));
        expect(scroll, 'the page does not pan sideways').toBeLessThanOrEqual(viewport);
        // The row's select box is still there to choose it for bulk approval.
        await expect(row.getByRole('checkbox')).toBeVisible();
        await expectNoAxeViolations(page);
      });
    });
  });
}
