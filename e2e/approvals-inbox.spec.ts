import type { Page } from '@playwright/test';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { auditFor, proposeByApi } from './bank-account-data.ts';
import { createTransfer, memberPage } from './transfers.ts';
import { expectBulkApproved, openInboxItem } from './inbox.ts';

/**
 * The approvals inbox as an approver works through it,
 * against the real server with data made through the real API: what each
 * row says (who proposed it, from which vault, its USD value, how long it
 * has waited), a bank account's last four digits at every width, approving
 * several transactions at once, and going on to the next item after a
 * decision. Other specs add pending items at the same time, so each test
 * finds its own rows by id.
 */

test.use({ role: 'approver' });

interface Created {
  id: string;
  subOrgId: string;
  source: { name?: string };
  amountInUSD?: string;
}

async function transaction(page: Page, id: string): Promise<Created> {
  const res = await page.request.get(`/api/external/transactions/${id}/`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Created;
}

const row = (page: Page, id: string) => page.locator(`[data-approval-id="${id}"]`);

/** A pending ETH transfer as the member on `page`, kept apart from the other specs' sub-organization. */
const proposeTransfer = (page: Page, baseURL: string, options: { memo: string; amount?: string }) =>
  createTransfer(page, baseURL, { ...options, from: 'apart' });

test('each row names the initiator, the vault, the USD value and how long it has waited', async ({
  members,
  page,
  browser,
  baseURL,
}) => {
  const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
  const id = await proposeTransfer(initiator, baseURL ?? '', { memo: 'inbox columns' });
  const tx = await transaction(initiator, id);
  await initiator.context().close();

  await page.goto(`/approvals?subOrg=${tx.subOrgId}`);
  const listed = row(page, id);
  await expect(listed).toContainText('Transfer of 0.001 ETH');
  await expect(listed).toContainText(members.initiator.name);
  await expect(listed).toContainText(tx.source.name ?? 'a vault name');
  expect(tx.amountInUSD, 'the sandbox values a transfer in USD').toBeTruthy();
  await expect(listed).toContainText(/≈ [\d,]+\.\d\d USD/);
  await expect(listed).toContainText(/just now|\d+ min ago/);
  // The exact time, machine-readable, beside the age.
  await expect(listed.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  await expectNoAxeViolations(page);
});

test("a bank account's last four digits stay in view at 1440, 1024 and 390 px", async ({
  page,
  browser,
  baseURL,
}) => {
  const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
  const account = await proposeByApi(initiator, baseURL ?? '', {
    // A long name and bank: the digits come last in the row's text.
    accountName: `Northwind Traders International Holdings Payroll ${Date.now()}`,
    bankName: 'First Continental Savings and Trust Company of America',
  });
  await initiator.context().close();

  // One page, laid out again at each width, as a window resized or a phone turned.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/approvals');
  const listed = row(page, account.id);
  const lastFour = listed.getByText(`•••• ${account.accountNumber.slice(-4)}`, { exact: true });
  for (const width of [1440, 1024, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(lastFour).toBeVisible();
    // Whole and on screen: not cut off, not scrolled out of the table's box.
    await expect(lastFour).toBeInViewport({ ratio: 1 });
    const { scroll, viewport } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(scroll, `at ${width} px`).toBeLessThanOrEqual(viewport);
  }
});

test('bulk approval: two selected transactions, one confirmation listing both, two audited approvals even when double-clicked', async ({
  members,
  page,
  browser,
  baseURL,
}) => {
  // Three members signed in, an axe scan and two audit trails: it ended at 29.5 s under load.
  test.slow();
  const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
  const first = await proposeTransfer(initiator, baseURL ?? '', {
    memo: 'bulk one',
    amount: '0.002',
  });
  const second = await proposeTransfer(initiator, baseURL ?? '', {
    memo: 'bulk two',
    amount: '0.003',
  });
  const { subOrgId } = await transaction(initiator, first);
  await initiator.context().close();

  const decisions: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/action/')) decisions.push(r.url());
  });
  await page.goto(`/approvals?subOrg=${subOrgId}`);
  for (const id of [first, second]) {
    const box = row(page, id).getByRole('checkbox');
    await expect(box).toHaveAccessibleName(/^Select Transfer of 0\.00[23] ETH to /);
    await box.check();
  }
  const bulk = page.getByRole('group', { name: 'Approve several transactions' });
  await expect(bulk).toContainText('2 selected');
  await bulk.getByRole('button', { name: 'Approve selected…' }).click();

  const dialog = page.getByRole('dialog', { name: 'Approve 2 transactions?' });
  // Every item with what its approval rests on: amount and USD, source, destination, initiator.
  for (const [id, amount, memo] of [
    [first, '0.002 ETH', 'bulk one'],
    [second, '0.003 ETH', 'bulk two'],
  ] as const) {
    const item = dialog.locator(`[data-batch-item="${id}"]`);
    await expect(item).toContainText(amount);
    await expect(item).toContainText(/≈ [\d,]+\.\d\d USD/);
    await expect(item).toContainText('our vault');
    await expect(item).toContainText(/To.+0x[0-9a-fA-F]{6}/);
    await expect(item).toContainText(members.initiator.name);
    await expect(item).toContainText(memo);
  }
  await expectNoAxeViolations(page);

  await dialog.getByRole('button', { name: 'Approve 2 transactions' }).dblclick();
  await expectBulkApproved(dialog, 2);
  for (const id of [first, second])
    await expect(dialog.locator(`[data-batch-item="${id}"]`)).toContainText('Approved.');
  expect(decisions).toHaveLength(2);

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  const summary = page.getByRole('status').filter({ hasText: 'Approved 2 of 2 transactions.' });
  await expect(summary).toBeFocused();
  for (const id of [first, second]) await expect(row(page, id)).toHaveCount(0);

  // Each its own audited decision, none failed or refused (read by an admin of the whole organization).
  const admin = await memberPage(browser, 'orgAdmin', baseURL ?? '');
  for (const id of [first, second]) {
    const entries = await auditFor(admin.request, id);
    const decided = entries.filter((e) => e.action.startsWith('change_request.'));
    expect(decided.map((e) => [e.action, e.outcome, e.actorName])).toEqual([
      ['change_request.approve', 'success', members.approver.name],
    ]);
  }
  await admin.context().close();
});

test.describe("one's own items", () => {
  // The admin who proposed it looks at the inbox: the worker's page, signed in as that member.
  test.use({ role: 'admin' });

  test("one's own items cannot be selected for bulk approval", async ({ page, baseURL }) => {
    const id = await proposeTransfer(page, baseURL ?? '', { memo: 'own, not selectable' });
    const { subOrgId } = await transaction(page, id);
    await page.goto(`/approvals?subOrg=${subOrgId}`);
    const box = row(page, id).getByRole('checkbox');
    await expect(box).toBeDisabled();
    await expect(box).toHaveAccessibleName(/^Not selectable, yours: another member must decide it/);
    // Select all leaves it out too.
    await page
      .getByRole('checkbox', {
        name: 'Select every transaction on this page you may approve together',
      })
      .check();
    await expect(box).not.toBeChecked();
    await expectNoAxeViolations(page);
  });
});

test('an item opened from the inbox leads on: j and k step through it, and after a decision the next item takes focus', async ({
  page,
  browser,
  baseURL,
}) => {
  const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
  const older = await proposeTransfer(initiator, baseURL ?? '', { memo: 'next, older' });
  const newer = await proposeTransfer(initiator, baseURL ?? '', { memo: 'next, newer' });
  const { subOrgId } = await transaction(initiator, newer);
  await initiator.context().close();

  await page.goto(`/approvals?subOrg=${subOrgId}`);
  await expect(row(page, older)).toBeVisible();
  await openInboxItem(row(page, newer));
  await expect(page).toHaveURL(new RegExp(`/transactions/${newer}`));
  const inbox = page.getByRole('navigation', { name: 'Approvals inbox' });
  await expect(inbox.getByRole('link', { name: /^Next item/ })).toBeVisible();

  // ? lists the inbox's keys; j goes to the next item, k comes back.
  await page.locator('main h1').click();
  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('Next item in the approvals inbox');
  await expect(help).toContainText('Previous item in the approvals inbox');
  await page.keyboard.press('Escape');
  await page.keyboard.press('j');
  await expect(page).not.toHaveURL(new RegExp(`/transactions/${newer}`));
  // The next item's own page, shown (the URL changes before its data has loaded).
  const nextId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
  await expect(page.locator('main').getByText(nextId, { exact: true }).first()).toBeVisible();
  await expect(inbox.getByRole('link', { name: /^Previous item/ })).toBeVisible();
  await page.keyboard.press('k');
  await expect(page).toHaveURL(new RegExp(`/transactions/${newer}`));

  // Decide: the outcome stays, and the next item waiting is offered with focus, never opened.
  await page.getByRole('button', { name: 'Approve…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve this transaction?' });
  await dialog.getByRole('button', { name: 'Approve transaction' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Approved.' })).toBeVisible();
  const next = page.getByRole('link', { name: /^Next item: / });
  await expect(next).toBeFocused();
  await expect(next).toHaveAccessibleDescription(/Approved\./);
  await expect(page).toHaveURL(new RegExp(`/transactions/${newer}`));
  await expectNoAxeViolations(page);

  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(new RegExp(`/transactions/${newer}`));
  await expect(page.getByRole('navigation', { name: 'Approvals inbox' })).toBeVisible();
});
