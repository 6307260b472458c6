import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { createTransfer, memberPage } from './transfers.ts';
import { focusLive, expectHydrated } from './keyboard.ts';

test.use({ role: 'approver' });

test('keyboard shortcuts move around and open decisions, never send one', async ({
  page,
  browser,
  baseURL,
}) => {
  const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
  const id = await createTransfer(initiator, baseURL ?? '', { memo: 'shortcut test' });
  await initiator.context().close();

  await page.goto('/transactions');
  await expect(page.getByRole('table', { name: 'Transactions' })).toBeVisible();
  // The keys are heard once the page is live: the server's markup is shown before its script
  // runs, and a key pressed then is the browser's alone.
  await expectHydrated(page);

  // ? lists them.
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('Go to the approvals inbox');
  await expectNoAxeViolations(page);
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // Typing in a field is typing: g then a does nothing there.
  await focusLive(page.getByLabel('External ID'));
  await page.keyboard.type('ga');
  await expect(page).toHaveURL(/\/transactions/);
  await expect(page.getByLabel('External ID')).toHaveValue('ga');
  await page.getByLabel('External ID').fill('');

  // / focuses the first filter; g then a goes to the inbox; j walks its rows.
  await page.locator('main h1').click();
  await page.keyboard.press('/');
  await expect(page.getByLabel('Status')).toBeFocused();
  await page.locator('main h1').click();
  await page.keyboard.press('g');
  await page.keyboard.press('a');
  await expect(page).toHaveURL(/\/approvals/);
  await expect(page.getByRole('heading', { name: 'Approvals', level: 1 })).toBeVisible();

  // On the transaction, a opens the approval's confirmation; Escape leaves it undecided.
  await page.goto(`/transactions/${id}`);
  await expect(page.getByRole('button', { name: 'Approve…' })).toBeEnabled();
  await page.keyboard.press('?');
  await expect(help).toContainText('Approve this transaction (asks to confirm)');
  await page.keyboard.press('Escape');
  // No shortcut fires while a dialog is in the page, and the list leaves it a moment after Escape.
  await expect(help).toBeHidden();
  await page.keyboard.press('a');
  const approve = page.getByRole('dialog', { name: 'Approve this transaction?' });
  await expect(approve).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(approve).toBeHidden();
  await page.keyboard.press('d');
  await expect(page.getByRole('dialog', { name: 'Decline this transaction?' })).toBeVisible();
  await page.keyboard.press('Escape');
  const status = await page.request.get(`/api/external/transactions/${id}/`);
  expect(((await status.json()) as { status: string }).status).toBe('PENDING');
});
