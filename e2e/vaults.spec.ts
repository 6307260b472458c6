import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { focusLive } from './keyboard.ts';

/**
 * The Vaults pages against the real server: the list valued, a vault's
 * balances, its deposit addresses (copied, and as a QR code) and its
 * transactions, linked both ways with the transactions list. The vault is
 * the worker's own (e2e/worker-world.ts), funded by deposits.
 */

test.describe('Vaults', () => {
  test('the list shows each vault’s type, sub-organization, chains and value, and opens a vault', async ({
    page,
    world,
  }) => {
    const name = world.funded.name;
    await page.goto('/vaults');
    await expect(page.getByRole('heading', { name: 'Vaults', level: 1 })).toBeVisible();
    const table = page.getByRole('table', { name: 'Vaults' });
    const row = table.locator('tbody tr').filter({ hasText: name });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(world.subOrg.name);
    await expect(row).toContainText('Ethereum');
    await expect(row.locator('td').last()).toHaveText(/^[\d,]+\.\d{2}$/);
    await expect(page.getByTestId('vaults-total')).toHaveText(/USD$/);
    await expectNoAxeViolations(page);

    // By keyboard: the vault's link, Enter.
    await focusLive(row.getByRole('link', { name }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/vaults/${world.funded.id}$`));
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  });

  test('a vault’s page: balances valued, a deposit address copied and shown as a QR code, its transactions both ways', async ({
    page,
    context,
    world,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const { id, name } = world.funded;

    await page.goto(`/vaults/${id}`);
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    const balances = page.getByRole('table', { name: new RegExp(`^What ${name} holds`) });
    const eth = balances.locator('[data-balance="ETH/ETHEREUM"]');
    await expect(eth).toBeVisible();
    await expect(eth.locator('td').last()).toHaveText(/^[\d,]+\.\d{2}$/);
    await expect(page.getByTestId('vault-total')).toHaveText(/USD$/);

    // The Ethereum deposit address: copied whole.
    const wallet = page.locator('[data-wallet="ETHEREUM"]');
    const address = (await wallet.getByTestId('wallet-address').textContent()) ?? '';
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    await focusLive(wallet.getByRole('button', { name: 'Copy the Ethereum deposit address' }));
    await page.keyboard.press('Enter');
    await expect(wallet.getByRole('status')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);

    // Its QR code, opened from the keyboard.
    await wallet.getByText('Show a QR code of the Ethereum address').focus();
    await page.keyboard.press('Enter');
    await expect(
      wallet.getByRole('img', { name: `QR code of the Ethereum deposit address ${address}` }),
    ).toBeVisible();
    await expectNoAxeViolations(page);

    // Its transactions, and the whole list filtered by it.
    const transactions = page.getByRole('table', { name: `Transactions of ${name}` });
    await expect(transactions.locator('tbody tr').first()).toBeVisible();
    await page.getByRole('link', { name: `All transactions of ${name}` }).click();
    await expect(page).toHaveURL(new RegExp(`/transactions\\?vaultId=${id}$`));
    await expect(page.getByLabel('Vault')).toHaveValue(id);
    const rows = page.getByRole('table', { name: 'Transactions' }).locator('tbody tr');
    await rows.first().getByRole('link').first().click();
    await expect(page).toHaveURL(/\/transactions\/[^/]+$/);

    // And back: the transaction names its vault, which leads to the vault's page. By keyboard:
    // when the newest transaction waits for approval, its card, progress and inbox links load
    // above the details after they show and push them down, and a click aimed just before
    // that landed on the page beside the link (seen once on a loaded machine). A focused
    // link's Enter does not depend on where the link stands.
    await focusLive(
      page.getByRole('region', { name: 'Details' }).getByRole('link', { name, exact: true }),
    );
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/vaults/${id}$`));
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  });

  test('a vault that is not there is said so, with the way back', async ({ page }) => {
    await page.goto('/vaults/not-a-vault');
    await expect(page.getByRole('alert')).toContainText('This vault could not be loaded');
    await expect(page.getByRole('link', { name: 'Back to the vaults' })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});
