import type { Page } from '@playwright/test';
import { add, cmp, sub } from '../src/contract/decimal.ts';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { focusLive } from './keyboard.ts';
import { memberPage } from './transfers.ts';
import { DESKTOP_ONLY } from './widths.ts';

/**
 * A swap from Convert and a scheduled transfer called off, on the worker's
 * own world (e2e/worker-world.ts). The swap sells USDC for ETH on Base, which
 * no other story spends from, so the balances read before and after move by
 * this swap alone.
 */

/** What the vault page shows the vault holding of `asset` on `chain`, as a decimal string. */
async function heldOnVaultPage(page: Page, vaultId: string, asset: string, chain: string) {
  await page.goto(`/vaults/${vaultId}`);
  const row = page.locator(`[data-balance="${asset}/${chain}"]`);
  await expect(row).toBeVisible();
  return ((await row.locator('td').nth(1).textContent()) ?? '').replace(/,/g, '').trim();
}

/** A fresh amount no other story sells: a few random digits after the point. */
const freshAmount = (whole: string) =>
  `${whole}.${String(crypto.getRandomValues(new Uint32Array(1))[0] ?? 7).slice(0, 4)}1`;

async function csrf(page: Page): Promise<string> {
  return ((await (await page.request.get('/auth/session')).json()) as { csrfToken: string })
    .csrfToken;
}

for (const width of DESKTOP_ONLY) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 }, role: 'initiator' });

    test('a swap of USDC into ETH from Convert: quotes compared, the approval card reviewed, approved, the vault moved by exactly the quote', async ({
      page,
      browser,
      baseURL,
      world,
    }) => {
      // Two members' browsers, three axe scans and a swap's lifecycle.
      test.slow();
      const vault = world.funded;
      const usdcBefore = await heldOnVaultPage(page, vault.id, 'USDC', 'BASE');
      const ethBefore = await heldOnVaultPage(page, vault.id, 'ETH', 'BASE');
      const amount = freshAmount('150');

      await page.goto('/convert?kind=SWAP');
      await expect(page.getByRole('link', { name: 'Swap' })).toHaveAttribute(
        'aria-current',
        'page',
      );
      const form = page.getByRole('form', { name: /^Swap/ });
      await expect(form.getByLabel('Vault')).toBeEnabled();
      await form.getByLabel('Vault').selectOption(vault.id);
      await form.getByLabel('Sell').selectOption('USDC|BASE');
      await form.getByLabel('Into').selectOption('ETH');
      // A wrong amount is named beside its field, and announced.
      await form.getByLabel(/^Amount sold/).fill('12,5');
      await focusLive(form.getByRole('button', { name: 'Get quotes' }));
      await page.keyboard.press('Enter');
      await expect(form.getByLabel(/^Amount sold/)).toHaveAttribute('aria-invalid', 'true');
      await expect(form.getByLabel(/^Amount sold/)).toHaveAccessibleDescription(/digits/);
      await expect(form.getByLabel(/^Amount sold/)).toBeFocused();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type(amount);
      await form.getByLabel(/^Slippage allowed/).fill('1');
      await focusLive(form.getByRole('button', { name: 'Get quotes' }));
      await page.keyboard.press('Enter');

      const quotes = page.getByTestId('trade-quote');
      await expect(quotes).toHaveCount(3);
      await expect(page.getByRole('group', { name: '3 quotes, best first' })).toBeVisible();
      await expect(quotes.first()).toContainText('Best');
      await expect(page.getByTestId('trade-quote-expiry').first()).toHaveText(/Expires in/);
      await expect(page.getByTestId('trade-quote-minimum').first()).toContainText('after slippage');
      await expectNoAxeViolations(page);

      // The best quote, chosen by keyboard, then reviewed.
      await focusLive(quotes.first().getByRole('radio'));
      await page.keyboard.press('Space');
      await expect(quotes.first().getByRole('radio')).toBeChecked();
      const arrives = (
        (await quotes.first().getByTestId('trade-quote-arrives').textContent()) ?? ''
      ).replace(/[^\d.]/g, '');
      const fee = (
        (await quotes.first().getByTestId('trade-quote-fee').textContent()) ?? ''
      ).replace(/[^\d.]/g, '');
      await focusLive(page.getByRole('button', { name: 'Review the chosen quote' }));
      await page.keyboard.press('Enter');

      // The review is the approval card the approver will see.
      const card = page.getByRole('region', { name: 'What approvers will see' });
      await expect(card.getByTestId('card-what')).toContainText('Swap');
      await expect(card.getByTestId('card-amount')).toContainText('USDC');
      await expect(page.getByTestId('swap-review-expiry')).toContainText('Expires in');
      await expectNoAxeViolations(page);
      await focusLive(page.getByRole('button', { name: 'Send swap' }));
      await page.keyboard.press('Enter');

      await expect(page).toHaveURL(/\/transactions\/[^/]+$/);
      const transactionId = page.url().split('/').pop() ?? '';

      // The worker's approver approves, in the browser.
      const approver = await memberPage(browser, 'approver', baseURL ?? '');
      await approver.goto(`/transactions/${transactionId}`);
      await focusLive(approver.getByRole('button', { name: 'Approve…' }));
      await approver.keyboard.press('Enter');
      const dialog = approver.getByRole('dialog', { name: 'Approve this transaction?' });
      await focusLive(dialog.getByRole('button', { name: 'Approve transaction' }));
      await approver.keyboard.press('Enter');
      await expect(dialog).toBeHidden();
      await approver.context().close();

      // The initiator's page follows it to the end, without a reload.
      await expect(page.locator('#transaction-page header')).toContainText('Completed', {
        timeout: 60_000,
      });

      // Its page shows both legs: the USDC sold and the ETH that arrived, as quoted.
      const digits = async (testId: string) =>
        ((await page.getByTestId(testId).textContent()) ?? '').replace(/[^\d.]/g, '');
      await expect(page.getByTestId('swap-sells')).toContainText('USDC');
      await expect(page.getByTestId('swap-arrives')).toContainText('ETH');
      expect(cmp(await digits('swap-sells'), amount)).toBe(0);
      expect(cmp(await digits('swap-arrives'), arrives)).toBe(0);

      // USDC down by the amount and the fee, ETH up by what the quote promised.
      expect(await heldOnVaultPage(page, vault.id, 'USDC', 'BASE')).toBe(
        sub(usdcBefore, add(amount, fee)),
      );
      expect(await heldOnVaultPage(page, vault.id, 'ETH', 'BASE')).toBe(add(ethBefore, arrives));
    });

    test('a scheduled transfer is cancelled from its page before its time, after a confirmation', async ({
      page,
      baseURL,
      world,
    }) => {
      const amount = freshAmount('0');
      const executeAt = new Date(Date.now() + 24 * 60 * 60_000).toISOString();
      const made = await page.request.post('/api/external/transactions/', {
        headers: { Origin: new URL(baseURL ?? '').origin, 'X-CSRF-Token': await csrf(page) },
        data: {
          category: 'TRANSFER',
          source: { type: 'VAULT', id: world.funded.id },
          destination: { type: 'CONTACT', id: world.ethereum.id },
          amount,
          asset: 'ETH',
          blockChain: 'ETHEREUM',
          executeAt,
        },
      });
      expect(made.status(), await made.text()).toBe(200);
      const { id } = (await made.json()) as { id: string };

      await page.goto(`/transactions/${id}`);
      await expect(page.locator('#transaction-page header')).toContainText('Scheduled for');
      await focusLive(page.getByRole('button', { name: 'Cancel scheduled transfer…' }));
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Cancel this scheduled transfer?' });
      await expect(dialog).toContainText('cannot be undone');
      await focusLive(dialog.getByRole('button', { name: 'Cancel the transfer' }));
      await page.keyboard.press('Enter');
      await expect(dialog).toBeHidden();

      await expect(page.locator('#transaction-page header')).toContainText('Failed');
      await expect(page.getByRole('button', { name: 'Cancel scheduled transfer…' })).toBeHidden();
      await expect(page.locator('#transaction-page')).toContainText('cancelled by');
      await expectNoAxeViolations(page);
    });
  });
}
