import { expect, test, type Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { uniqueName } from './bank-account-data.ts';
import { UPSTREAM_MEMBERS } from './upstream-members.ts';

// The main flows on a console in upstream mode (e2e/upstream-pair.ts): every
// row comes from the second console, over signed HTTP.

async function signInThroughTheForm(page: Page, member: { email: string; password: string }) {
  await page.goto('/login');
  // Upstream mode has no demo members to offer.
  await expect(page.getByRole('button', { name: /^Use .* account/ })).toHaveCount(0);
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The home page: the overview, its figures read from upstream too.
  await expect(page.getByTestId('total-usd')).toBeVisible();
}

async function csrfToken(page: Page): Promise<string> {
  const session = await page.request.get('/auth/session');
  return ((await session.json()) as { csrfToken: string }).csrfToken;
}

test('a member signs in, sees the upstream host, and pages and filters its transactions', async ({
  page,
}) => {
  await signInThroughTheForm(page, UPSTREAM_MEMBERS.initiator);
  const upstreamHost = `127.0.0.1:${process.env.E2E_UPSTREAM_B_PORT}`;
  await expect(page.getByText(`Upstream: ${upstreamHost}`)).toBeVisible();
  await expect(page.getByText('Sandbox', { exact: true })).toHaveCount(0);
  await expect(page.getByTestId('priced-at')).toContainText('Valued by the custody service');
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Transactions' })
    .click();

  const table = page.getByRole('table', { name: 'Transactions' });
  await expect(table.locator('tbody tr')).toHaveCount(20);
  await expectNoAxeViolations(page);
  const firstRow = await table.locator('tbody tr').first().textContent();
  await page.getByRole('button', { name: 'Next page' }).click();
  await expect(page).toHaveURL(/cursor=/);
  await expect(table.locator('tbody tr').first()).not.toHaveText(firstRow ?? '');

  await page.goto('/transactions?status=COMPLETED');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  const statuses = await table
    .locator('[data-status]')
    .evaluateAll((cells) => cells.map((c) => c.getAttribute('data-status')));
  expect(new Set(statuses)).toEqual(new Set(['COMPLETED']));
});

test('bank accounts are masked, revealed on request, and a proposal is decided by another member', async ({
  browser,
  page,
}) => {
  await signInThroughTheForm(page, UPSTREAM_MEMBERS.initiator);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Bank accounts' })
    .click();
  const table = page.getByRole('table', { name: 'Bank accounts' });
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await expect(table).not.toContainText(/\d{9,}/);

  // The proposal goes through A as the browser's own API call would.
  const accountNumber = `${Date.now()}`.slice(-12);
  // Its own name, so that another run on the same servers finds this account alone.
  const accountName = uniqueName('Upstream E2E Payee');
  const origin = new URL(page.url()).origin;
  const created = await page.request.post('/api/external/bank_accounts/', {
    data: {
      paymentMethod: 'US_ACH',
      accountName,
      accountNumber,
      routingNumber: '021000021',
      bankName: 'E2E Bank',
      country: 'US',
    },
    headers: { Origin: origin, 'X-CSRF-Token': await csrfToken(page) },
  });
  expect(created.status(), await created.text()).toBe(200);
  const account = (await created.json()) as { id: string; accountNumber: string };
  expect(account.accountNumber).toBe(`•••• ${accountNumber.slice(-4)}`);

  const approverContext = await browser.newContext();
  const approverPage = await approverContext.newPage();
  await signInThroughTheForm(approverPage, UPSTREAM_MEMBERS.approver);
  const message = await approverPage.request.get(
    `/api/external/change_requests/approvals/approval_message/?entityId=${account.id}`,
  );
  expect(message.status(), await message.text()).toBe(200);
  const { approvalId } = (await message.json()) as { approvalId: string };
  const decided = await approverPage.request.post(
    `/api/external/change_requests/approvals/${approvalId}/action/`,
    {
      data: { action: 'approve' },
      headers: { Origin: origin, 'X-CSRF-Token': await csrfToken(approverPage) },
    },
  );
  expect(decided.status(), await decided.text()).toBe(200);
  await approverContext.close();

  await page.goto('/bank-accounts?status=APPROVED');
  const row = table.locator('tbody tr').filter({ hasText: accountName });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: /^Reveal full numbers of / }).click();
  await expect(row).toContainText(accountNumber);
});
