import { expect, signInAs, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { expectHydrated } from './keyboard.ts';
import { createTransfer, memberPage } from './transfers.ts';
import { startSmtpServer } from '../src/server/test/smtp.ts';

// The SMTP server, the team webhooks and the delivery log name every sub-organization's items:
// only an admin of the whole organization manages them.
test.use({ role: 'orgAdmin' });

// An admin points the console's email at an SMTP server this story starts on 127.0.0.1; the
// worker's initiator proposes a transfer; the worker's approver, who may decide it, receives
// the message with its link, the initiator does not; the delivery log shows it; the link,
// opened signed in, lands on the transfer. Other stories' items are emailed too while it is
// set: the story follows its own transfer's messages, and turns email off at the end.

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
test.beforeAll(async () => {
  smtp = await startSmtpServer();
});
test.afterAll(async () => {
  await smtp.close();
});

test('an admin sets up email; a transfer needing approval reaches its approver, linked to it', async ({
  page,
  browser,
  baseURL,
  members,
}) => {
  // Two axe scans, a transfer and a message through the real notifier, a second member's page.
  test.setTimeout(120_000);
  await page.goto('/settings/notifications');
  await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
  await expectHydrated(page);
  await expectNoAxeViolations(page);

  const form = page.getByRole('form', { name: 'Email (SMTP server)' });
  await form.getByLabel('Host').fill('127.0.0.1');
  await form.getByLabel('Port').fill(String(smtp.port));
  await form.getByLabel('Connection security').selectOption('NONE');
  await form.getByLabel('User name (optional)').fill('');
  await form.getByLabel('From address').fill('console@example.test');
  await form.getByLabel('Send notifications by email').check();
  await form.getByRole('button', { name: 'Save SMTP settings' }).click();
  await expect(form.getByRole('status')).toHaveText('Saved.');

  try {
    const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
    const transactionId = await createTransfer(initiator, baseURL ?? '');
    await initiator.context().close();
    const subject = `Transaction ${transactionId} needs your approval`;
    const approver = members.approver.email;
    await expect
      .poll(() => smtp.mails.filter((m) => m.subject === subject).flatMap((m) => m.to), {
        timeout: 30_000,
      })
      .toContain(approver);
    const mine = smtp.mails.filter((m) => m.subject === subject);
    expect(mine.flatMap((m) => m.to)).not.toContain(members.initiator.email);
    expect(mine.flatMap((m) => m.to)).not.toContain(members.viewer.email);
    const mail = mine.find((m) => m.to.includes(approver));
    const link = /(https?:\/\/\S+\/transactions\/\S+)/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(new URL(link).pathname).toBe(`/transactions/${transactionId}`);
    expect(mail?.text).toContain('Decisions are made in the console only');

    // The delivery log: the approver's row, sent.
    await page.reload();
    const log = page.getByRole('region', { name: 'Notifications sent' });
    const row = log.getByRole('row').filter({ hasText: approver }).filter({ hasText: subject });
    await expect(row).toContainText('Sent');
    await expect(row.getByRole('link', { name: subject })).toHaveAttribute('href', link);
    await expectNoAxeViolations(page);

    // The approver opens the link signed in: the transfer's page, with its decision to make.
    const context = await browser.newContext({ baseURL: baseURL ?? '' });
    const approverPage = await context.newPage();
    await signInAs(approverPage, 'approver', baseURL ?? '');
    await approverPage.goto(`${new URL(link).pathname}`);
    await expect(approverPage).toHaveURL(new RegExp(`/transactions/${transactionId}$`));
    const main = approverPage.getByRole('main');
    await expect(main.getByText(transactionId, { exact: true }).first()).toBeVisible();
    await expect(main.getByRole('region', { name: 'Awaiting approval' })).toBeVisible();
    await expect(main.getByRole('button', { name: 'Approve…' })).toBeVisible();

    // Their preferences, on their account page.
    await approverPage.goto('/account');
    const prefs = approverPage.getByRole('form', { name: 'Notifications' });
    await expect(prefs.getByLabel('Email me notifications')).toBeChecked();
    await expect(prefs.getByLabel('An item needs your approval')).toBeChecked();
    await expectHydrated(approverPage);
    await expectNoAxeViolations(approverPage);
    await context.close();
  } finally {
    // Left on, every later story's item would be emailed to a server that is gone.
    await form.getByLabel('Send notifications by email').uncheck();
    await form.getByRole('button', { name: 'Save SMTP settings' }).click();
    await expect(form.getByRole('status')).toHaveText('Saved.');
  }
});
