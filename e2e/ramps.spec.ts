import type { Page } from '@playwright/test';
import { cmp, sub } from '../src/contract/decimal.ts';
import { expect, test, type WorkerWorld } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { focusLive } from './keyboard.ts';
import { approveByApi, memberPage } from './transfers.ts';

/**
 * Ramps and FX through the Convert page against the real server
 * (SANDBOX_TIME_SCALE 600, as playwright.config.ts starts it): quotes
 * compared, sent once, approved by another member, followed to the end on
 * the transaction page; an on-ramp's deposit instructions and "Mark deposit
 * sent". They use the worker's own world (e2e/worker-world.ts): its
 * approved bank account is paid, the off-ramp pays from its funded vault and
 * the on-ramp credits its empty one, so neither moves the balance the other
 * checks.
 */

interface Vault {
  id: string;
  vaultName?: string;
  subOrgId?: string | null;
  wallets?: Array<{ blockchain: string }>;
}

async function vault(page: Page, id: string): Promise<Vault> {
  const answer = await page.request.get(`/api/external/vaults/${id}/`);
  expect(answer.status(), await answer.text()).toBe(200);
  return (await answer.json()) as Vault;
}

async function usdcBalance(page: Page, vaultId: string, chain: string): Promise<string> {
  const answer = await page.request.get(`/api/external/vaults/${vaultId}/balances/`);
  expect(answer.status()).toBe(200);
  const balances = (await answer.json()) as Record<string, Record<string, string>>;
  return balances.USDC?.[chain] ?? '0';
}

const MOVING = ['APPROVED', 'SIGNED', 'SUBMITTED', 'WAITING_CONFIRMATION'];

/**
 * A chain on which the worker's funded vault holds at least 500 USDC and no
 * moving USDC transaction touches it: one of an earlier story still moving
 * the same balance would blur the figure checked.
 */
async function quietUsdc(page: Page, world: WorkerWorld): Promise<{ vault: Vault; chain: string }> {
  const busy = new Set<string>();
  for (const status of MOVING) {
    const answer = await page.request.get(
      `/api/external/transactions/?status=${status}&asset=USDC&limit=100`,
    );
    const { results } = (await answer.json()) as {
      results: Array<{
        blockChain?: string;
        source?: { id?: string };
        destination?: { id?: string };
      }>;
    };
    for (const t of results)
      for (const id of [t.source?.id, t.destination?.id]) busy.add(`${id}/${t.blockChain}`);
  }
  const funded = await vault(page, world.funded.id);
  for (const chain of (funded.wallets ?? []).map((w) => w.blockchain))
    if (
      !busy.has(`${funded.id}/${chain}`) &&
      cmp(await usdcBalance(page, funded.id, chain), '500') >= 0
    )
      return { vault: funded, chain };
  throw new Error(`${world.funded.name} holds 500 USDC on no chain no moving transaction touches`);
}

const step = (page: Page, status: string) => page.locator(`[data-step="${status}"]`);

test.describe('Convert', () => {
  test.use({ role: 'initiator' });

  test('an initiator off-ramps USDC to an approved account after comparing quotes; an approver approves; the vault drops by exactly the quote', async ({
    page,
    browser,
    baseURL,
    world,
  }) => {
    // Two members' browsers, two axe scans and a lifecycle of three operations.
    test.slow();
    const approver = await memberPage(browser, 'approver', baseURL ?? '');
    const { vault, chain } = await quietUsdc(page, world);
    const account = world.bankAccount;
    const before = await usdcBalance(page, vault.id, chain);

    await page.goto('/convert');
    await expect(page.getByRole('heading', { level: 1, name: 'Convert' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Convert' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    const form = page.getByRole('form', { name: /^Off-ramp/ });
    await expect(form.getByLabel('From vault')).toBeEnabled();
    await form.getByLabel('From vault').selectOption(vault.id);
    await form.getByLabel('Chain').selectOption(chain);
    await form.getByLabel('Asset sold').selectOption('USDC');
    await form.getByLabel('To bank account').selectOption(account.id);
    // A US ACH account is paid in dollars: nothing to choose.
    await expect(form.getByLabel('Paid in')).toHaveValue('USD');
    await expect(form.getByLabel('To bank account')).toContainText('•••• ');
    await form.getByLabel('Amount (USDC)').fill('250');
    await focusLive(form.getByRole('button', { name: 'Get quotes' }));
    await page.keyboard.press('Enter');

    const quotes = page.getByTestId('quote');
    await expect(quotes).toHaveCount(3);
    await expect(page.getByRole('group', { name: '3 quotes, best first' })).toBeVisible();
    // Best first: each quote delivers no more than the one before it.
    const arriving = (await page.getByTestId('quote-arrives').allTextContents()).map((t) =>
      t.replace(/[^\d.]/g, ''),
    );
    for (let i = 1; i < arriving.length; i += 1)
      expect(cmp(arriving[i - 1] ?? '0', arriving[i] ?? '0')).toBeGreaterThanOrEqual(0);
    await expect(page.getByTestId('quote-expiry').first()).toHaveText(/Expires in/);
    await expectNoAxeViolations(page);

    // The second provider, chosen by keyboard: arrows move within the radio group.
    await focusLive(quotes.first().getByRole('radio'));
    await page.keyboard.press('ArrowDown');
    await expect(quotes.nth(1).getByRole('radio')).toBeChecked();
    const leaves = (await quotes.nth(1).getByTestId('quote-leaves').textContent()) ?? '';
    const arrives = (await quotes.nth(1).getByTestId('quote-arrives').textContent()) ?? '';
    await focusLive(page.getByRole('button', { name: 'Review the chosen quote' }));
    await page.keyboard.press('Enter');

    await expect(page.getByTestId('review-leaves')).toContainText(
      `${leaves} from vault ${vault.vaultName}`,
    );
    await expect(page.getByTestId('review-arrives')).toContainText(
      `${arrives} at ${account.accountName}`,
    );
    await expectNoAxeViolations(page);
    await focusLive(page.getByRole('button', { name: 'Send conversion' }));
    await page.keyboard.press('Enter');

    await expect(page).toHaveURL(/\/transactions\/[^/]+$/);
    const transactionId = page.url().split('/').pop() ?? '';
    await expect(page.getByTestId('ramp-quote-leaves')).toHaveText(leaves);
    await expect(page.getByTestId('ramp-quote-arrives')).toHaveText(arrives);
    await expect(step(page, 'PENDING')).toHaveAttribute('data-state', 'current');

    // Another member approves, in the browser.
    await approver.goto(`/transactions/${transactionId}`);
    await focusLive(approver.getByRole('button', { name: 'Approve…' }));
    await approver.keyboard.press('Enter');
    const dialog = approver.getByRole('dialog', { name: 'Approve this transaction?' });
    await focusLive(dialog.getByRole('button', { name: 'Approve transaction' }));
    await approver.keyboard.press('Enter');
    await expect(dialog).toBeHidden();

    // The initiator's page follows it to the end, without a reload.
    await expect(step(page, 'COMPLETED')).toHaveAttribute('data-state', 'done', {
      timeout: 60_000,
    });
    const operations = page
      .getByRole('list', { name: 'Steps of the conversion' })
      .getByRole('listitem');
    await expect(operations).toHaveCount(3);
    for (const op of await operations.all())
      await expect(op).toHaveAttribute('data-op-status', 'COMPLETED');

    // Exactly what the quote said leaves the vault: the amount with the fee inside it.
    const quoted = leaves.replace(/[^\d.]/g, '');
    const ramp = await page.request.get(`/api/external/transactions/${transactionId}/`);
    const { balanceChanges } = (await ramp.json()) as {
      balanceChanges?: {
        changes?: Array<{ party?: { id?: string }; amount?: string; asset?: string }>;
      };
    };
    expect(
      balanceChanges?.changes?.find((c) => c.party?.id === vault.id && c.asset === 'USDC')?.amount,
    ).toBe(`-${quoted}`);
    expect(await usdcBalance(page, vault.id, chain)).toBe(sub(before, quoted));

    // The bank account's page lists the conversion paid to it.
    await page.goto(`/bank-accounts/${account.id}`);
    await expect(page.getByTestId('bank-account-ramps')).toContainText(arrives);
    await approver.context().close();
  });

  test('an on-ramp shows deposit instructions once approved and completes after "Mark deposit sent"', async ({
    page,
    browser,
    baseURL,
    world,
  }) => {
    test.slow();
    const vault = world.empty;

    await page.goto('/convert?kind=ON_RAMP');
    const form = page.getByRole('form', { name: /^On-ramp/ });
    await expect(form.getByLabel('You pay in')).toBeEnabled();
    await form.getByLabel('You pay in').selectOption('USD');
    await form.getByLabel('To vault').selectOption(vault.id);
    const chain = await form.getByLabel('Chain').locator('option').nth(1).getAttribute('value');
    await form.getByLabel('Chain').selectOption(chain ?? '');
    await form.getByLabel('Asset bought').selectOption('USDC');
    await form.getByLabel('What arrives (USDC): the fee is added on top').check();
    await form.getByLabel('Amount (USDC)').fill('150');
    await focusLive(form.getByRole('button', { name: 'Get quotes' }));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('quote')).toHaveCount(3);
    await expect(page.getByTestId('quote-arrives').first()).toHaveText('150 USDC');
    await focusLive(page.getByRole('button', { name: 'Review the chosen quote' }));
    await page.keyboard.press('Enter');
    await focusLive(page.getByRole('button', { name: 'Send conversion' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/transactions\/[^/]+$/);
    const transactionId = page.url().split('/').pop() ?? '';
    // No instructions before four-eyes.
    await expect(page.getByRole('region', { name: 'Conversion quote' })).toBeVisible();
    await expect(page.getByTestId('deposit-instructions')).toHaveCount(0);

    const approver = await memberPage(browser, 'approver', baseURL ?? '');
    await approveByApi(approver, baseURL ?? '', transactionId);
    await approver.context().close();

    const instructions = page.getByTestId('deposit-instructions');
    await expect(instructions).toBeVisible({ timeout: 20_000 });
    await expect(instructions.getByRole('button', { name: 'Copy reference' })).toBeVisible();
    await expect(instructions.getByRole('button', { name: 'Copy account number' })).toBeVisible();
    await expectNoAxeViolations(page);

    await focusLive(page.getByRole('button', { name: 'Mark deposit sent…' }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Mark the deposit sent?' });
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.getByRole('button', { name: 'Mark deposit sent' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: 'Marked sent' })).toBeVisible();

    await expect(step(page, 'COMPLETED')).toHaveAttribute('data-state', 'done', {
      timeout: 60_000,
    });
    const operations = page
      .getByRole('list', { name: 'Steps of the conversion' })
      .getByRole('listitem');
    for (const op of await operations.all())
      await expect(op).toHaveAttribute('data-op-status', 'COMPLETED');
    await expect(page.getByRole('button', { name: 'Mark deposit sent…' })).toHaveCount(0);
  });

  test('FX: euros from the organization’s bank to an approved dollar account, quotes compared, approved by a second member, deposit marked sent, COMPLETED', async ({
    page,
    browser,
    baseURL,
    world,
  }) => {
    test.slow();
    const approver = await memberPage(browser, 'approver', baseURL ?? '');
    const account = world.bankAccount;

    await page.goto('/convert?kind=FX');
    const form = page.getByRole('form', { name: /^FX/ });
    await expect(form.getByLabel('You pay in')).toBeEnabled();
    await form.getByLabel('You pay in').selectOption('EUR');
    await form.getByLabel('To bank account').selectOption(account.id);
    await expect(form.getByLabel('To bank account')).toContainText('•••• ');
    await expect(form.getByLabel('Paid in')).toHaveValue('USD');
    await form.getByLabel('Amount (EUR)').fill('1000');
    await focusLive(form.getByRole('button', { name: 'Get quotes' }));
    await page.keyboard.press('Enter');

    const quotes = page.getByTestId('quote');
    await expect(quotes).toHaveCount(3);
    await expect(page.getByTestId('quote-expiry').first()).toHaveText(/Expires in/);
    await expect(page.getByTestId('quote-leaves').first()).toContainText('1,000');
    await expectNoAxeViolations(page);
    const arrives = (await quotes.first().getByTestId('quote-arrives').textContent()) ?? '';
    expect(arrives).toContain('USD');
    await focusLive(page.getByRole('button', { name: 'Review the chosen quote' }));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('review-leaves')).toContainText("your organization's bank");
    await expect(page.getByTestId('review-arrives')).toContainText(
      `${arrives} at ${account.accountName}`,
    );
    await expectNoAxeViolations(page);
    await focusLive(page.getByRole('button', { name: 'Send conversion' }));
    await page.keyboard.press('Enter');

    await expect(page).toHaveURL(/\/transactions\/[^/]+$/);
    const transactionId = page.url().split('/').pop() ?? '';
    await expect(page.getByTestId('ramp-quote-arrives')).toHaveText(arrives);
    await expect(page.getByTestId('deposit-instructions')).toHaveCount(0);

    // A second member approves, in the browser.
    await approver.goto(`/transactions/${transactionId}`);
    await focusLive(approver.getByRole('button', { name: 'Approve…' }));
    await approver.keyboard.press('Enter');
    const dialog = approver.getByRole('dialog', { name: 'Approve this transaction?' });
    await focusLive(dialog.getByRole('button', { name: 'Approve transaction' }));
    await approver.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await approver.context().close();

    const instructions = page.getByTestId('deposit-instructions');
    await expect(instructions).toBeVisible({ timeout: 20_000 });
    await expect(instructions.getByRole('button', { name: 'Copy IBAN' })).toBeVisible();
    await expect(instructions.getByRole('button', { name: 'Copy reference' })).toBeVisible();
    await expect(instructions).toContainText('1,000');
    await expectNoAxeViolations(page);

    await focusLive(page.getByRole('button', { name: 'Mark deposit sent…' }));
    await page.keyboard.press('Enter');
    const mark = page.getByRole('dialog', { name: 'Mark the deposit sent?' });
    await focusLive(mark.getByRole('button', { name: 'Mark deposit sent' }));
    await page.keyboard.press('Enter');
    await expect(mark).toBeHidden();

    await expect(step(page, 'COMPLETED')).toHaveAttribute('data-state', 'done', {
      timeout: 60_000,
    });
    const operations = page
      .getByRole('list', { name: 'Steps of the conversion' })
      .getByRole('listitem');
    await expect(operations).toHaveCount(3);
    for (const op of await operations.all())
      await expect(op).toHaveAttribute('data-op-status', 'COMPLETED');
    await expectNoAxeViolations(page);

    await page.goto(`/bank-accounts/${account.id}`);
    await expect(page.getByTestId('bank-account-ramps')).toContainText(arrives);
  });

  test('a viewer is told why there is nothing to convert', async ({ browser, baseURL }) => {
    const viewer = await memberPage(browser, 'viewer', baseURL ?? '');
    await viewer.goto('/convert');
    await expect(viewer.getByTestId('convert-blocked')).toContainText('initiator or admin role');
    await expect(
      viewer.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Convert' }),
    ).toHaveCount(0);
    await expectNoAxeViolations(viewer);
    await viewer.context().close();
  });
});
