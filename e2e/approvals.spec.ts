import type { Page } from '@playwright/test';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { createTransfer, memberPage } from './transfers.ts';
import { focusLive } from './keyboard.ts';
import { approvalsLink, badgeShows } from './inbox.ts';

/**
 * The approvals inbox and its navigation badge against the real server:
 * pending transfers and bank accounts in one list, the badge following
 * decisions without a reload, the member's own items marked and uncounted,
 * and no inbox for roles that do not decide. Other specs create pending
 * items at the same time, so counts are compared with the API's own answer
 * for the same scope rather than with fixed numbers.
 */

interface InboxPage {
  results: Array<{ id: string; kind: string; yours: boolean; subOrgId: string | null }>;
  actionableCount: number;
  totalCount: number;
}

async function inbox(page: Page, subOrg: string): Promise<InboxPage> {
  const res = await page.request.get(`/api/console/approvals/?subOrgId=${subOrg}&limit=100`);
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as InboxPage;
}

async function subOrgOf(page: Page, transactionId: string): Promise<string> {
  const res = await page.request.get(`/api/external/transactions/${transactionId}/`);
  return ((await res.json()) as { subOrgId: string }).subOrgId;
}

async function proposeAccount(page: Page, baseURL: string, subOrgId: string, name: string) {
  const session = (await (await page.request.get('/auth/session')).json()) as { csrfToken: string };
  const res = await page.request.post('/api/external/bank_accounts/', {
    headers: { Origin: new URL(baseURL).origin, 'X-CSRF-Token': session.csrfToken },
    data: {
      paymentMethod: 'US_ACH',
      subOrgId,
      accountName: name,
      accountNumber: `7${Date.now() % 100_000_000}`.padEnd(9, '0'),
      routingNumber: '021000021',
      bankName: 'Inbox Test Bank',
      country: 'US',
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

test.describe('Approvals inbox', () => {
  test.use({ role: 'approver' });

  test('lists a pending transfer and a pending bank account; deciding one drops the badge', async ({
    page,
    browser,
    baseURL,
  }) => {
    // Room for the badge's 30 s refresh below.
    test.slow();
    const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
    const transferId = await createTransfer(initiator, baseURL ?? '', { memo: 'e2e inbox' });
    const subOrg = await subOrgOf(initiator, transferId);
    const accountName = `Inbox ${Date.now()}`;
    const accountId = await proposeAccount(initiator, baseURL ?? '', subOrg, accountName);
    await initiator.context().close();

    await page.goto(`/approvals?subOrg=${subOrg}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Approvals' })).toBeVisible();
    const transferRow = page.locator(`[data-approval-id="${transferId}"]`);
    const accountRow = page.locator(`[data-approval-id="${accountId}"]`);
    await expect(transferRow).toContainText('Transfer of 0.001 ETH');
    await expect(accountRow).toContainText(accountName);
    // Masked, as everywhere a bank account is listed.
    await expect(accountRow).toContainText('••••');
    await expectNoAxeViolations(page);

    // The badge says what the server says waits for this member in this scope. An item
    // another spec creates between the badge's read and the API's is caught up by the
    // badge's own 30 s refresh, hence the longer wait.
    await expect
      .poll(async () => badgeShows(page, (await inbox(page, subOrg)).actionableCount), {
        timeout: 35_000,
      })
      .toBe(true);
    await expect(approvalsLink(page)).toHaveAccessibleName(/waiting for your decision/);

    // Keyboard only: from the row's link to the decision on the transfer's page.
    await focusLive(transferRow.getByRole('link', { name: /Review and decide/ }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`/transactions/${transferId}`));
    await focusLive(page.getByRole('button', { name: 'Approve…' }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Approve this transaction?' });
    await focusLive(dialog.getByRole('button', { name: 'Approve transaction' }));
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();

    // No reload: the decision refreshed the count, and the item left the inbox.
    await expect
      .poll(async () => {
        const now = await inbox(page, subOrg);
        return (
          !now.results.some((i) => i.id === transferId) &&
          (await badgeShows(page, now.actionableCount))
        );
      })
      .toBe(true);
    await page.goBack();
    await expect(accountRow).toBeVisible();
    await expect(transferRow).toHaveCount(0);
  });

  test("an admin's own items are marked, offer no decision and are not counted", async ({
    browser,
    baseURL,
  }) => {
    const admin = await memberPage(browser, 'admin', baseURL ?? '');
    const id = await createTransfer(admin, baseURL ?? '', { memo: 'e2e inbox own' });
    const subOrg = await subOrgOf(admin, id);

    await admin.goto(`/approvals?subOrg=${subOrg}`);
    const row = admin.locator(`[data-approval-id="${id}"]`);
    await expect(row).toContainText('Yours — another member must decide');
    await expect(row.getByRole('link', { name: /Review and decide/ })).toHaveCount(0);
    await expect(row.getByRole('link', { name: /^View/ })).toBeVisible();
    await expectNoAxeViolations(admin);

    const listed = await inbox(admin, subOrg);
    expect(listed.results.find((i) => i.id === id)?.yours).toBe(true);
    expect(listed.actionableCount).toBeLessThan(listed.totalCount);
    await expect
      .poll(async () => badgeShows(admin, (await inbox(admin, subOrg)).actionableCount))
      .toBe(true);
    await admin.context().close();
  });

  for (const role of ['viewer', 'initiator'] as const) {
    test(`the ${role} role has no inbox and no badge`, async ({ browser, baseURL }) => {
      const member = await memberPage(browser, role, baseURL ?? '');
      await member.goto('/transactions');
      await expect(member.getByRole('heading', { level: 1, name: 'Transactions' })).toBeVisible();
      await expect(approvalsLink(member)).toHaveCount(0);
      // The server refuses the inbox too; the page says so rather than failing.
      expect((await member.request.get('/api/console/approvals/')).status()).toBe(403);
      await member.goto('/approvals');
      await expect(
        member.getByRole('heading', { name: "You don't have access to the approvals inbox" }),
      ).toBeVisible();
      await member.context().close();
    });
  }
});
