import type { Page } from '@playwright/test';
import { cmp } from '../src/contract/decimal.ts';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { choose, countCreates, csrf, expectOneTransactionPage, openForm } from './create-forms.ts';
import { approveByApi, memberPage } from './transfers.ts';
import { DESKTOP_ONLY } from './widths.ts';

/**
 * Taking a stake back: after a stake completes, the stake form's Unstake
 * shows what the vault has staked, refuses more as the amount is typed, and
 * sends an unstake of part of it.
 */

interface Vault {
  id: string;
  vaultName?: string;
  wallets?: Array<{ blockchain: string }>;
}

const step = (page: Page, status: string) => page.locator(`[data-step="${status}"]`);

/** The first vault on TRON holding at least 10 TRX: the one the stake is made from. */
async function tronVault(page: Page): Promise<Vault & { vaultName: string }> {
  const vaults = (await (await page.request.get('/api/external/vaults/?limit=100')).json()) as {
    results: Vault[];
  };
  for (const vault of vaults.results) {
    if (!vault.vaultName || !vault.wallets?.some((w) => w.blockchain === 'TRON')) continue;
    const balances = (await (
      await page.request.get(`/api/external/vaults/${vault.id}/balances/`)
    ).json()) as Record<string, Record<string, string>>;
    if (cmp(balances.TRX?.TRON ?? '0', '10') >= 0) return { ...vault, vaultName: vault.vaultName };
  }
  throw new Error('no vault on TRON holds 10 TRX');
}

for (const width of DESKTOP_ONLY) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a completed stake is shown on Unstake, more than it is refused as typed, and part of it is unstaked', async ({
      page,
      browser,
      baseURL,
    }) => {
      // A stake through its lifecycle (sped up), then the form: more than the 30 s default.
      test.slow();
      const base = baseURL ?? '';
      const vault = await tronVault(page);
      // An amount no other story stakes, so the stake is told apart by it.
      const amount = `1.${String(Math.floor(Math.random() * 9000) + 1000)}`;

      // The stake, sent by an initiator and approved by the admin this test signs in as.
      const initiator = await memberPage(browser, 'initiator', base);
      const sent = await initiator.request.post('/api/external/transactions/', {
        headers: { Origin: new URL(base).origin, 'X-CSRF-Token': await csrf(initiator) },
        data: {
          category: 'STAKE',
          source: { type: 'VAULT', id: vault.id },
          amount,
          asset: 'TRX',
          blockChain: 'TRON',
          resourceType: 'TRON_ENERGY',
        },
      });
      expect(sent.status(), await sent.text()).toBe(200);
      const { id } = (await sent.json()) as { id: string };
      await approveByApi(page, base, id);

      // What is staked counts completed stakes only: wait for the page to show this one completed.
      await page.goto(`/transactions/${id}`);
      await expect(step(page, 'COMPLETED')).toHaveAttribute('data-state', 'done', {
        timeout: 40_000,
      });

      const creates = countCreates(page);
      const form = await openForm(page, 'STAKE');
      await form.getByRole('radio', { name: 'Unstake' }).check();
      await choose(form.getByLabel('Vault', { exact: true }), vault.vaultName);
      await form.getByLabel('Chain', { exact: true }).selectOption('TRON');
      await form.getByLabel('Resource (optional)').selectOption('TRON_ENERGY');
      const field = form.getByLabel(/^Amount to unstake/);
      // Other stories may stake on the same vault meanwhile: the figure is read from the page,
      // and holds at least this story's stake.
      const hint = form.getByText(/TRX staked for Energy: the most you can unstake\./);
      await expect(hint).toBeVisible();
      const staked = /^([\d,.]+) TRX/
        .exec((await hint.textContent()) ?? '')?.[1]
        ?.replaceAll(',', '');
      expect(staked, 'the hint names the staked figure').toBeDefined();
      expect(cmp(staked ?? '0', amount)).toBeGreaterThanOrEqual(0);

      // More than is staked: refused on the amount as it is typed, in a sentence.
      await field.fill('999999999');
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toHaveAccessibleDescription(
        /The amount is more than the vault has staked: [\d.]+ is staked\./,
      );
      expect(creates()).toBe(0);

      // Part of this story's stake: sent, and its page opens.
      await field.fill('0.5');
      await expect(field).not.toHaveAttribute('aria-invalid', 'true');
      const externalId = await form.getByLabel('External ID').inputValue();
      await form.getByRole('button', { name: 'Review' }).click();
      const review = page.getByRole('region', { name: /Review the unstake/ });
      await expect(review).toContainText('0.5');
      await expectNoAxeViolations(page);
      await review.getByRole('button', { name: 'Send transaction' }).click();
      const created = await expectOneTransactionPage(page, externalId);
      expect(created.subCategory).toBe('UNSTAKE');
      expect(created.amount).toBe('0.5');
      await expectNoAxeViolations(page);
      await initiator.context().close();
    });
  });
}
