import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { createTransfer } from './transfers.ts';

// An admin registers a webhook endpoint (a server of this test's own, on
// 127.0.0.1: the e2e server allows private targets, WEBHOOK_ALLOW_PRIVATE_TARGETS=1),
// sees its verification key once, watches a failed delivery in the log and resends it.
// Other specs' transactions reach the endpoint too: the test follows its own transfer's.

interface Hit {
  eventId: string;
  transactionId: string;
  status: string;
}

let answer = 500;
const hits: Hit[] = [];
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
  req.on('end', () => {
    const json = JSON.parse(body) as {
      eventId: string;
      event: string;
      data: { transaction: { id: string; status: string } };
    };
    if (json.event === 'TRANSACTION_STATUS_CHANGED')
      hits.push({
        eventId: json.eventId,
        transactionId: json.data.transaction.id,
        status: json.data.transaction.status,
      });
    res.writeHead(answer).end(answer === 500 ? 'receiver down' : '');
  });
});

test.beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

test('an admin registers an endpoint, sees its key once, and resends a failed delivery', async ({
  page,
  baseURL,
}) => {
  // Three axe scans and a delivery, a retry and a resend through the real dispatcher.
  test.setTimeout(90_000);
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  await page.goto('/settings/webhooks');
  await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);

  // A refused URL is named at its field.
  const form = page.getByRole('form', { name: 'Register an endpoint' });
  await form.getByLabel('URL').fill('not a url');
  await form.getByRole('button', { name: 'Register endpoint' }).click();
  await expect(form.getByText('url must be an http(s) URL')).toBeVisible();

  // Registered by keyboard: only the status changes, the Python example's verification.
  await form.getByLabel('URL').fill(url);
  await form.getByLabel('Transaction operation status changed').uncheck();
  await form.getByLabel('Description (optional)').fill('e2e receiver');
  await form.getByLabel('Description (optional)').press('Enter');
  const keyPanel = page.getByRole('region', { name: 'Verification key' });
  await expect(keyPanel).toBeVisible();
  const key = (await keyPanel.locator('#webhook-key').textContent()) ?? '';
  expect(key).toMatch(/^whsec_/);
  await expectNoAxeViolations(page);
  await keyPanel.getByRole('button', { name: 'I have stored the key' }).click();
  await expect(keyPanel).toBeHidden();

  // Never shown again, not even after a reload.
  await page.reload();
  const card = page.getByRole('listitem').filter({ hasText: url });
  await expect(card).toBeVisible();
  expect(await page.content()).not.toContain(key);

  // A transfer's first status reaches a receiver that answers 500: logged, waiting to retry.
  const transactionId = await createTransfer(page, baseURL ?? '', { from: 'apart' });
  await card.getByRole('button', { name: 'Show deliveries' }).click();
  const log = card.getByRole('region', { name: `Deliveries to ${url}` });
  await expect.poll(() => hits.filter((h) => h.transactionId === transactionId).length).toBe(1);
  const [first] = hits.filter((h) => h.transactionId === transactionId);
  const row = log.getByRole('row').filter({ hasText: first?.eventId ?? '?' });
  await expect(row).toContainText('answered 500: receiver down');
  await expect(row).toContainText('Pending');
  await expectNoAxeViolations(page);

  // The receiver is back; resent now, the same event arrives and the log says so.
  answer = 204;
  await row.getByRole('button', { name: `Resend event ${first?.eventId}` }).click();
  await expect(card.getByRole('status').filter({ hasText: 'queued again' })).toBeVisible();
  await expect
    .poll(() => hits.filter((h) => h.eventId === first?.eventId).length)
    .toBeGreaterThanOrEqual(2);
  await expect(row).toContainText('Delivered');
  await expect(row).toContainText('204');

  // Deleted, with its log: nothing more is sent to it.
  await card.getByRole('button', { name: 'Delete…' }).click();
  await card.getByRole('button', { name: 'Delete it and its log' }).click();
  await expect(card).toBeHidden();
});
