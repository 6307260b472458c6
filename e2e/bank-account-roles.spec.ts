import type { Page } from '@playwright/test';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import {
  approvalIdFor,
  auditFor,
  bankAccountStatus,
  forgeDecision,
  proposeByApi,
} from './bank-account-data.ts';
import { memberPage } from './transfers.ts';

/**
 * Who may not decide a bank account, or see its full numbers: the page
 * offers them nothing, and the server refuses the request they could still
 * send from that very page (its cookie, its CSRF token, its Origin).
 */

const decisionButtons = (page: Page) => page.getByRole('button', { name: /^(Approve|Decline)…$/ });

async function stillPending(page: Page, id: string): Promise<void> {
  expect(await bankAccountStatus(page.request, id)).toBe('PENDING');
  await page.reload();
  await expect(page.getByRole('region', { name: 'History' })).toContainText(
    'Waiting for another member to approve or decline.',
  );
}

test.describe('The proposer', () => {
  test.describe('who may approve others’ proposals (an admin)', () => {
    test.use({ role: 'admin' });

    test('is told another member decides, is offered no decision, and is refused one sent anyway', async ({
      members,
      page,
      baseURL,
    }) => {
      const account = await proposeByApi(page, baseURL ?? '');
      await page.goto(`/bank-accounts/${account.id}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(account.accountName);
      await expect(
        page.getByText('You proposed this account, so another member must approve or decline it.'),
      ).toBeVisible();
      await expect(decisionButtons(page)).toHaveCount(0);

      const approvalId = await approvalIdFor(page.request, account.id);
      for (const action of ['approve', 'reject'] as const) {
        const forged = await forgeDecision(page, approvalId, action);
        expect(forged.status).toBe(403);
        expect(forged.body.code).toBe('FOUR_EYES');
      }
      await stillPending(page, account.id);
      // Both refusals are on record, under the account the decision was about.
      // Read by an admin of the whole organization: the audit log is the organization's record.
      const reader = await memberPage(page.context().browser()!, 'orgAdmin', baseURL ?? '');
      const refusals = await auditFor(reader.request, account.id);
      await reader.context().close();
      for (const action of ['change_request.approve', 'change_request.reject'])
        expect(refusals).toContainEqual(
          expect.objectContaining({
            action,
            actorName: members.admin.name,
            outcome: 'denied',
            summary: expect.stringContaining('FOUR_EYES') as unknown,
          }),
        );
    });
  });
});

test.describe('A viewer', () => {
  test.use({ role: 'viewer' });

  test('is offered no action anywhere, and each one sent anyway is refused', async ({
    members,
    page,
    baseURL,
  }) => {
    const initiator = await memberPage(page.context().browser()!, 'initiator', baseURL ?? '');
    const account = await proposeByApi(initiator, baseURL ?? '');
    await initiator.context().close();

    await page.goto('/bank-accounts');
    await expect(page.getByRole('table', { name: 'Bank accounts' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Propose bank account' })).toHaveCount(0);
    await page.goto('/bank-accounts/new');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      "You don't have access to proposing bank accounts",
    );
    await expect(page.getByRole('form')).toHaveCount(0);

    await page.goto(`/bank-accounts/${account.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(account.accountName);
    await expect(page.getByRole('region', { name: 'Details' })).toContainText(
      `•••• ${account.accountNumber.slice(-4)}`,
    );
    await expect(page.getByRole('button', { name: /Approve|Decline|Reveal/ })).toHaveCount(0);
    await expectNoAxeViolations(page);

    const approver = await memberPage(page.context().browser()!, 'approver', baseURL ?? '');
    const approvalId = await approvalIdFor(approver.request, account.id);
    await approver.context().close();
    const forged = await forgeDecision(page, approvalId, 'approve');
    expect(forged.status).toBe(403);
    expect(forged.body.code).toBe('FORBIDDEN_ROLE');

    // A reveal is a mutation: a POST with the session's CSRF token, refused here by role.
    const revealed = await page.evaluate(async (id) => {
      const session = (await (await fetch('/auth/session')).json()) as { csrfToken: string };
      const response = await fetch(`/api/console/bank_accounts/${id}/reveal/`, {
        method: 'POST',
        headers: { 'X-CSRF-Token': session.csrfToken },
      });
      return { status: response.status, body: await response.text() };
    }, account.id);
    expect(revealed.status).toBe(403);
    expect(revealed.body).toContain('FORBIDDEN_ROLE');
    expect(revealed.body).not.toContain(account.accountNumber);

    const proposed = await page.evaluate(async () => {
      const session = (await (await fetch('/auth/session')).json()) as { csrfToken: string };
      const response = await fetch('/api/external/bank_accounts/', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': session.csrfToken },
        body: JSON.stringify({
          paymentMethod: 'US_ACH',
          accountName: 'Forged by a viewer',
          accountNumber: '000111222333',
          routingNumber: '021000021',
          bankName: 'JPMorgan Chase Bank',
          country: 'US',
        }),
      });
      return { status: response.status, body: (await response.json()) as { code?: string } };
    });
    expect(proposed.status).toBe(403);
    expect(proposed.body.code).toBe('FORBIDDEN_ROLE');
    await stillPending(page, account.id);

    // The refused reveal is on record, under the viewer's name.
    // The audit log is the organization's record: read by an admin of the whole organization.
    const admin = await memberPage(page.context().browser()!, 'orgAdmin', baseURL ?? '');
    expect(await auditFor(admin.request, account.id, 'bank_account.reveal')).toContainEqual(
      expect.objectContaining({ actorName: members.viewer.name, outcome: 'denied' }),
    );
    await admin.context().close();
  });
});

test.describe('The proposer who may only propose (an initiator)', () => {
  test.use({ role: 'initiator' });

  // The proposer who may only propose is offered no decision, and reveals the numbers
  // of the account it proposed: one account, one page.
  test('is offered no decision and is refused one sent anyway; reveals the full numbers in place until hidden, and each reveal is audited', async ({
    members,
    page,
    baseURL,
  }) => {
    // More than one story's steps: the tripled budget, for a loaded machine.
    test.slow();
    const account = await proposeByApi(page, baseURL ?? '');
    await page.goto(`/bank-accounts/${account.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(account.accountName);
    await expect(decisionButtons(page)).toHaveCount(0);

    // The approval id is not the secret: it leaks, the server still refuses.
    const approver = await memberPage(page.context().browser()!, 'approver', baseURL ?? '');
    const approvalId = await approvalIdFor(approver.request, account.id);
    await approver.context().close();
    const forged = await forgeDecision(page, approvalId, 'approve');
    expect(forged.status).toBe(403);
    expect(forged.body.code).toBe('FORBIDDEN_ROLE');
    await stillPending(page, account.id);

    const details = page.getByRole('region', { name: 'Details' });
    await expect(details).toContainText(`•••• ${account.accountNumber.slice(-4)}`);
    await page.getByRole('button', { name: 'Reveal full numbers' }).click();
    await expect(details).toContainText(account.accountNumber);
    await expect(details).toContainText(account.routingNumber);
    await page.getByRole('button', { name: 'Hide full numbers' }).click();
    await expect(details).not.toContainText(account.accountNumber);
    expect(await page.content()).not.toContain(account.accountNumber);
    // Nothing of it kept in the browser's storage either.
    const stored = await page.evaluate(() =>
      JSON.stringify({ ...localStorage, ...sessionStorage }),
    );
    expect(stored).not.toContain(account.accountNumber);

    // The audit log is the organization's record: read by an admin of the whole organization.
    const admin = await memberPage(page.context().browser()!, 'orgAdmin', baseURL ?? '');
    const reveals = await auditFor(admin.request, account.id, 'bank_account.reveal');
    expect(reveals).toContainEqual(
      expect.objectContaining({ actorName: members.initiator.name, outcome: 'success' }),
    );
    expect(JSON.stringify(reveals)).not.toContain(account.accountNumber);
    await admin.context().close();
  });
});
