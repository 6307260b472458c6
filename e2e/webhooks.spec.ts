import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Locator } from '@playwright/test';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { expectHydrated } from './keyboard.ts';
import { createTransfer } from './transfers.ts';
import { DESKTOP_ONLY } from './widths.ts';

// Webhook endpoints receive every sub-organization's events: only an admin of the whole organization manages them.
test.use({ role: 'orgAdmin' });

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

// "Send a test event": a receiver of this file's own, answering each path as the story sets it.
const answers = new Map<string, number>();
const testReceiver = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const status = answers.get(req.url ?? '') ?? 404;
    res.writeHead(status).end(status >= 400 ? 'receiver down' : '');
  });
});
test.beforeAll(async () => {
  await new Promise<void>((resolve) => testReceiver.listen(0, '127.0.0.1', resolve));
});
test.afterAll(async () => {
  testReceiver.closeAllConnections();
  await new Promise<void>((resolve) => testReceiver.close(() => resolve()));
});

/**
 * The card's counters and the table's rows by state, read at one moment in
 * the page: they must say the same.
 */
async function countersAndRows(card: Locator) {
  return card.evaluate((element) => {
    const counters = element.querySelector('[data-testid="delivery-counts"]')?.textContent ?? '';
    const match = /(\d+) delivered, (\d+) pending, (\d+) failed/.exec(counters);
    const rows = [...element.querySelectorAll('tr[data-delivery-state]')];
    const tally = (state: string) =>
      rows.filter((row) => row.getAttribute('data-delivery-state') === state).length;
    return {
      counters: match ? { delivered: match[1], pending: match[2], failed: match[3] } : counters,
      rows: {
        delivered: String(tally('DELIVERED')),
        pending: String(tally('PENDING')),
        failed: String(tally('FAILED')),
      },
    };
  });
}

for (const width of DESKTOP_ONLY) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('an admin sends a test event and sees its result, its row marked as a test, the counters agreeing with the table', async ({
      page,
      baseURL,
    }) => {
      // Two test events and a transfer's first status, through the real server and dispatcher.
      test.setTimeout(90_000);
      const path = `/test-event-${width}-${crypto.randomUUID()}`;
      const url = `http://127.0.0.1:${(testReceiver.address() as AddressInfo).port}${path}`;
      answers.set(path, 204);
      await page.goto('/settings/webhooks');
      await expectHydrated(page);

      // The encoding is said by what the receiver gets, the technical term second.
      const form = page.getByRole('form', { name: 'Register an endpoint' });
      const encoding = form.getByLabel('How your receiver checks the signature');
      await expect(encoding.locator('option:checked')).toHaveText(
        /^Letters like é written as codes .* \(ASCII_ESCAPED\)$/,
      );
      await expect(
        form.getByText(/^Every event is a JSON body signed with HMAC-SHA256/),
      ).toBeVisible();
      await form.getByLabel('URL').fill(url);
      await form.getByLabel('Transaction operation status changed').uncheck();
      await form.getByRole('button', { name: 'Register endpoint' }).click();
      const keyPanel = page.getByRole('region', { name: 'Verification key' });
      await keyPanel.getByRole('button', { name: 'I have stored the key' }).click();
      const card = page.getByRole('listitem').filter({ hasText: url });
      await expect(card).toBeVisible();

      // A transfer of the story's own: its delivery names it and links to it.
      const transactionId = await createTransfer(page, baseURL ?? '', { from: 'apart' });
      await card.getByRole('button', { name: 'Show deliveries' }).click();
      const log = card.getByRole('region', { name: `Deliveries to ${url}` });
      const link = log.locator(`a[href="/transactions/${transactionId}"]`).first();
      await expect(link).toHaveText(/^Transfer of 0\.001 ETH\b/);
      // Off: other stories' transactions stop queuing for it; a test event is still sent.
      await card.getByRole('button', { name: 'Turn off' }).click();
      await expect(card.getByRole('button', { name: 'Turn on' })).toBeVisible();

      await card.getByRole('button', { name: 'Send a test event' }).click();
      const result = card.getByTestId('test-event-result');
      await expect(result).toContainText(/^Test event delivered: answered 204 in \d+ ms, sent /);
      const tests = log.locator('tr[data-test-event]');
      await expect(tests).toHaveCount(1);
      await expect(tests.first()).toContainText('Test event');
      await expect(tests.first()).toContainText('None: a test');
      await expect(tests.first()).toContainText('Delivered');
      await expect(tests.first()).toContainText('204');

      // The receiver is down: the answer says so, and the failed test is in the table too.
      answers.set(path, 503);
      await card.getByRole('button', { name: 'Send a test event' }).click();
      await expect(result).toContainText(
        'Test event not delivered (answered 503: receiver down), sent ',
      );
      await expect(tests).toHaveCount(2);
      await expect(log.locator('tr[data-test-event][data-delivery-state="FAILED"]')).toContainText(
        'answered 503: receiver down',
      );

      // The counters above the table say what the table shows, however the log moves.
      await expect
        .poll(async () => {
          const { counters, rows } = await countersAndRows(card);
          return JSON.stringify(counters) === JSON.stringify(rows) ? 'agree' : { counters, rows };
        })
        .toBe('agree');
      await expect(card.getByTestId('delivery-counts')).toContainText(/[1-9]\d* failed/);
      await expectNoAxeViolations(page);

      await card.getByRole('button', { name: 'Delete…' }).click();
      await card.getByRole('button', { name: 'Delete it and its log' }).click();
      await expect(card).toBeHidden();
    });
  });
}
