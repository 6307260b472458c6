import type { Page } from '@playwright/test';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import {
  approvalIdFor,
  auditFor,
  bankAccountStatus,
  decideByApi,
  forgeDecision,
  proposeByApi,
} from './bank-account-data.ts';
import { expectHydrated, tabTo } from './keyboard.ts';
import { memberPage } from './transfers.ts';
import { openInboxItem } from './inbox.ts';

/**
 * Deciding a proposed bank account: a second member approves or declines it
 * on its page, behind a confirmation that reveals (and audits) the full
 * numbers; the proposer and a viewer are offered nothing, and the server
 * refuses them when they send the decision anyway. Each test proposes its
 * own account, as the worker's initiator unless it says otherwise.
 */

async function proposedByInitiator(page: Page, baseURL: string) {
  const initiator = await memberPage(page.context().browser()!, 'initiator', baseURL);
  const account = await proposeByApi(initiator, baseURL);
  await initiator.context().close();
  return account;
}

const decisionButtons = (page: Page) => page.getByRole('button', { name: /^(Approve|Decline)…$/ });

test.describe('Deciding a bank account, as a second member', () => {
  test.use({ role: 'approver' });

  test('approve: the confirmation shows the full numbers, then Approved, in the history and the audit log', async ({
    members,
    page,
    baseURL,
  }) => {
    // The whole decision in one story: two axe scans, a forged second decision,
    // an admin's own session reading the audit log, and the list. On a loaded
    // machine that passes the 30 s default; it gets the tripled budget.
    test.slow();
    const account = await proposedByInitiator(page, baseURL ?? '');
    await page.goto(`/bank-accounts/${account.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(account.accountName);
    const details = page.getByRole('region', { name: 'Details' });
    await expect(details).toContainText(`•••• ${account.accountNumber.slice(-4)}`);
    await expect(details).not.toContainText(account.accountNumber);
    await expect(decisionButtons(page)).toHaveCount(2);
    await expectNoAxeViolations(page);
    const approvalId = await approvalIdFor(page.request, account.id);

    await page.getByRole('button', { name: 'Approve…' }).click();
    const dialog = page.getByRole('dialog', { name: `Approve ${account.accountName}?` });
    await expect(dialog).toContainText(account.accountNumber);
    await expect(dialog).toContainText(account.routingNumber);
    await expect(dialog).toContainText(members.initiator.name);
    await expectNoAxeViolations(page);
    // Double-clicked: one decision is sent (a second would be refused and audited as failed).
    await dialog.getByRole('button', { name: 'Approve bank account' }).dblclick();

    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status')).toHaveText('Approved: the decision is recorded.');
    await expect(page.getByRole('status')).toBeFocused();
    await expect(decisionButtons(page)).toHaveCount(0);
    await expect(details).toContainText('Approved');
    // The numbers left with the dialog.
    await expect(details).not.toContainText(account.accountNumber);
    const history = page.getByRole('region', { name: 'History' });
    await expect(history).toContainText(`Proposed by ${members.initiator.name}`);
    await expect(history).toContainText(`Approved by ${members.approver.name}`);
    expect(await bankAccountStatus(page.request, account.id)).toBe('APPROVED');

    // Deciding again is refused: it is decided.
    const again = await forgeDecision(page, approvalId, 'approve');
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('ALREADY_DECIDED');

    // The audit log is the organization's record: read by an admin of the whole organization.
    const admin = await memberPage(page.context().browser()!, 'orgAdmin', baseURL ?? '');
    const reveals = await auditFor(admin.request, account.id, 'bank_account.reveal');
    expect(reveals).toContainEqual(
      expect.objectContaining({ actorName: members.approver.name, outcome: 'success' }),
    );
    // The audit log names the account by its last four only.
    for (const entry of await auditFor(admin.request, account.id))
      expect(JSON.stringify(entry)).not.toContain(account.accountNumber);
    await expect
      .poll(async () => (await auditFor(admin.request, account.id)).map((e) => e.action))
      .toContain('change_request.approve');
    // One success from the double click; the one failure is the forged decision above.
    const approvals = (await auditFor(admin.request, account.id)).filter(
      (e) => e.action === 'change_request.approve',
    );
    expect(approvals.filter((e) => e.outcome === 'success')).toHaveLength(1);
    expect(approvals.filter((e) => e.outcome !== 'success')).toHaveLength(1);
    await admin.context().close();

    // The list shows it approved, still masked.
    await page.goto('/bank-accounts?status=APPROVED&paymentMethod=US_ACH');
    const row = page.locator(`tr[data-bank-account-id="${account.id}"]`);
    await expect(row).toContainText('Approved');
    await expect(row).not.toContainText(account.accountNumber);
  });

  test('decline: a reason is required, and the proposer reads it in the history', async ({
    members,
    page,
    baseURL,
  }) => {
    // The proposer's own browser: it proposes, and reads the reason once declined.
    const proposer = await memberPage(page.context().browser()!, 'initiator', baseURL ?? '');
    const account = await proposeByApi(proposer, baseURL ?? '');
    const reason = 'The beneficiary name does not match the signed instruction letter.';
    await page.goto(`/bank-accounts/${account.id}`);
    await page.getByRole('button', { name: 'Decline…' }).click();
    const dialog = page.getByRole('dialog', { name: `Decline ${account.accountName}?` });
    await expect(dialog).toContainText(account.accountNumber);

    await dialog.getByRole('button', { name: 'Decline bank account' }).click();
    const field = dialog.getByLabel('Reason for declining');
    await expect(dialog.getByRole('alert')).toHaveText(
      'Give a reason to decline: the proposer reads it on the account’s page.',
    );
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toBeFocused();
    await expectNoAxeViolations(page);
    expect(await bankAccountStatus(page.request, account.id)).toBe('PENDING');

    await field.fill(reason);
    await dialog.getByRole('button', { name: 'Decline bank account' }).click();
    await expect(page.getByRole('status')).toHaveText('Declined: the decision is recorded.');
    const history = page.getByRole('region', { name: 'History' });
    await expect(history).toContainText(`Declined by ${members.approver.name}`);
    await expect(history).toContainText(`Reason: ${reason}`);
    expect(await bankAccountStatus(page.request, account.id)).toBe('DECLINED');

    await proposer.goto(`/bank-accounts/${account.id}`);
    await expect(proposer.getByRole('region', { name: 'Details' })).toContainText('Declined');
    await expect(proposer.getByRole('region', { name: 'History' })).toContainText(
      `Reason: ${reason}`,
    );
    await proposer.context().close();
  });

  test('a refusal keeps the dialog and says why (decided elsewhere meanwhile); an account that does not exist is an error state that passes axe', async ({
    page,
    baseURL,
  }) => {
    // More than one story's steps: the tripled budget, for a loaded machine.
    test.slow();
    await test.step('an account that does not exist', async () => {
      await page.goto('/bank-accounts/ba_does_not_exist');
      await expect(page.getByRole('alert')).toContainText('This bank account could not be loaded');
      await expectNoAxeViolations(page);
    });
    const account = await proposedByInitiator(page, baseURL ?? '');
    await page.goto(`/bank-accounts/${account.id}`);
    await page.getByRole('button', { name: 'Approve…' }).click();
    const dialog = page.getByRole('dialog', { name: `Approve ${account.accountName}?` });
    await expect(dialog).toContainText(account.accountNumber);
    // Another approver decides first.
    const admin = await memberPage(page.context().browser()!, 'admin', baseURL ?? '');
    await decideByApi(admin.request, baseURL ?? '', account.id, 'reject');
    await admin.context().close();

    await dialog.getByRole('button', { name: 'Approve bank account' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Not approved:');
    await expectNoAxeViolations(page);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('region', { name: 'Details' })).toContainText('Declined');
    await expect(decisionButtons(page)).toHaveCount(0);
  });

  test('approve with the keyboard alone', async ({ members, page, baseURL }) => {
    const account = await proposedByInitiator(page, baseURL ?? '');
    await page.goto(`/bank-accounts/${account.id}`);
    // Tab passes over a control held disabled until hydration: reach it once the page is live.
    await expectHydrated(page);
    const approve = page.getByRole('button', { name: 'Approve…' });
    await tabTo(page, approve);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: `Approve ${account.accountName}?` });
    // Escape backs out, and focus is where it was.
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(approve).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(dialog).toContainText(account.accountNumber);
    const confirm = dialog.getByRole('button', { name: 'Approve bank account' });
    await expect(confirm).toBeEnabled();
    await tabTo(page, confirm);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status')).toBeFocused();
    await expect(page.getByRole('region', { name: 'History' })).toContainText(
      `Approved by ${members.approver.name}`,
    );
  });

  test('a pending account waits in /approvals, and leaves it once approved', async ({
    page,
    baseURL,
  }) => {
    const account = await proposedByInitiator(page, baseURL ?? '');
    await page.goto('/approvals');
    const row = page.locator(`[data-approval-id="${account.id}"]`);
    await expect(row).toContainText('Bank account');
    await expect(row).toContainText(account.accountName);
    await expect(row).not.toContainText(account.accountNumber);
    await openInboxItem(row);
    await expect(page).toHaveURL(new RegExp(`/bank-accounts/${account.id}`));

    await page.getByRole('button', { name: 'Approve…' }).click();
    const dialog = page.getByRole('dialog', { name: `Approve ${account.accountName}?` });
    await expect(dialog).toContainText(account.accountNumber);
    await dialog.getByRole('button', { name: 'Approve bank account' }).click();
    await expect(page.getByRole('status')).toHaveText('Approved: the decision is recorded.');

    await page.getByRole('link', { name: /^Approvals/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Approvals' })).toBeVisible();
    // The worker's sub-organization may hold nothing else waiting: the list, or its empty state.
    await expect(
      page
        .getByRole('table', { name: 'Waiting for a decision' })
        .or(page.getByText('No items waiting for a decision yet')),
    ).toBeVisible();
    await expect(row).toHaveCount(0);
  });
});
