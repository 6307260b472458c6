import type { ConsoleMessage, Page } from '@playwright/test';
import { toChecksumAddress } from '../src/contract/contact-address.ts';
import { expect, test, type WorkerWorld } from './auth.ts';
import { expectHydrated } from './keyboard.ts';
import { expectNoAxeViolations } from './axe.ts';
import { CONTACTS_PATH, freshAddress, proposeContactByApi } from './contact-data.ts';
import { choose, csrf, openForm } from './create-forms.ts';
import { memberPage } from './transfers.ts';
import { openInboxItem } from './inbox.ts';

/**
 * The address book: an initiator proposes an Ethereum contact in
 * the form (a lowercase address shown checksummed, a wrong checksum refused
 * before anything is sent), an approver approves it from the inbox, and the
 * transfer form then offers it; a declined contact is never offered. Each
 * test makes its own contacts, on addresses nobody else uses.
 */

/** The same address with one letter's case flipped: its EIP-55 checksum no longer holds. */
function miscased(checksummed: string): string {
  const i = [...checksummed].findIndex((ch, n) => n > 1 && /[a-f]/i.test(ch));
  const ch = checksummed.charAt(i);
  const flipped = ch === ch.toUpperCase() ? ch.toLowerCase() : ch.toUpperCase();
  return `${checksummed.slice(0, i)}${flipped}${checksummed.slice(i + 1)}`;
}

async function declineByApi(page: Page, baseURL: string, contactId: string) {
  const message = await page.request.get(
    `/api/external/change_requests/approvals/approval_message/?entityId=${contactId}`,
  );
  expect(message.status(), await message.text()).toBe(200);
  const { approvalId } = (await message.json()) as { approvalId: string };
  const res = await page.request.post(
    `/api/external/change_requests/approvals/${approvalId}/action/`,
    {
      headers: { Origin: new URL(baseURL).origin, 'X-CSRF-Token': await csrf(page) },
      data: { action: 'reject', reason: 'Not the counterparty on the signed instructions' },
    },
  );
  expect(res.status(), await res.text()).toBe(200);
}

/** The contacts the transfer form offers for ETH on Ethereum from the worker's funded vault. */
async function offeredContacts(page: Page, world: WorkerWorld): Promise<string[]> {
  const form = await openForm(page, 'TRANSFER');
  await choose(form.getByLabel('From vault'), world.funded.name);
  await form.getByLabel('Chain', { exact: true }).selectOption('ETHEREUM');
  await form.getByLabel('Asset', { exact: true }).selectOption('ETH');
  const contact = form.getByLabel('Contact', { exact: true });
  await expect(contact.locator('option').nth(1)).toBeAttached();
  return contact.locator('option').allTextContents();
}

test.describe('The address book', () => {
  test.use({ role: 'initiator' });

  test('propose in the form (checksummed, a wrong checksum refused), approve from the inbox, then offered in the transfer form; a declined contact never, nor a pending one', async ({
    page,
    baseURL,
    world,
  }) => {
    test.slow();
    const name = `E2E desk ${Date.now()}`;
    const lowercase = freshAddress();
    const checksummed = toChecksumAddress(lowercase);
    let creates = 0;
    page.on('request', (r) => {
      if (r.method() === 'POST' && new URL(r.url()).pathname === CONTACTS_PATH) creates += 1;
    });

    // Two more of the initiator's contacts, through the API: one the approver declines below,
    // one left pending. Neither is ever offered.
    const declined = await proposeContactByApi(page, baseURL ?? '', `Declined desk ${Date.now()}`);
    const pending = await proposeContactByApi(page, baseURL ?? '', `Pending desk ${Date.now()}`);

    await page.goto('/contacts');
    await expectHydrated(page);
    await page.getByRole('link', { name: 'Propose contact' }).click();
    await expect(page.getByRole('heading', { name: 'Propose a contact', level: 1 })).toBeVisible();
    const form = page.getByRole('form', { name: 'Propose a contact' });
    await expect(form.getByLabel('Name')).toBeEnabled();
    await form.getByLabel('Name').fill(name);
    await form.getByLabel('Chain').selectOption('ETHEREUM');
    const address = form.getByRole('textbox', { name: 'Address' });

    // A mixed-case address whose checksum fails: refused on the field, naming the rule.
    await address.fill(miscased(checksummed));
    await address.blur();
    await expect(address).toHaveAttribute('aria-invalid', 'true');
    await expect(address).toHaveAccessibleDescription(/EIP-55 checksum/);
    await form.getByRole('button', { name: 'Propose contact' }).click();
    expect(creates).toBe(0);

    // Lowercase is accepted, and shown checksummed once left.
    await address.fill(lowercase);
    await address.blur();
    await expect(address).toHaveValue(checksummed);
    await expect(address).not.toHaveAttribute('aria-invalid', 'true');
    await form.getByRole('checkbox', { name: /^ETH/ }).check();
    await expectNoAxeViolations(page);
    // Sent by keyboard.
    await form.getByRole('button', { name: 'Propose contact' }).focus();
    await page.keyboard.press('Enter');

    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    expect(creates).toBe(1);
    await expect(page.getByTestId('contact-address')).toHaveText(checksummed);
    await expect(page.locator('#contact-page')).toContainText('Pending');
    // The proposer is not offered the contact yet.
    expect((await offeredContacts(page, world)).join('\n')).not.toContain(name);

    // An approver finds it in the inbox and approves it on its page.
    const approver = await memberPage(page.context().browser()!, 'approver', baseURL ?? '');
    await approver.goto('/approvals');
    const row = approver.locator('tr', { hasText: name });
    await expect(row).toContainText('Contact');
    await openInboxItem(row);
    await expect(approver.getByRole('heading', { level: 1 })).toHaveText(name);
    await approver.getByRole('button', { name: 'Approve…' }).click();
    const dialog = approver.getByRole('dialog', { name: `Approve ${name}?` });
    await expect(dialog).toContainText(checksummed);
    await expectNoAxeViolations(approver);
    await dialog.getByRole('button', { name: 'Approve', exact: true }).click();
    await expect(approver.getByRole('status').filter({ hasText: 'Approved' })).toHaveText(
      'Approved: the decision is recorded.',
    );
    await declineByApi(approver, baseURL ?? '', declined.id);
    await approver.context().close();

    // Offered now to the initiator's transfer; the declined and the pending ones are not.
    const offered = await offeredContacts(page, world);
    expect(offered.some((text) => text.startsWith(name))).toBe(true);
    expect(offered.join('\n')).not.toContain(declined.name);
    expect(offered.join('\n')).not.toContain(pending.name);

    await page.goto(`/contacts/${declined.id}`);
    await expect(page.locator('#contact-page')).toContainText('Declined');
    await expect(page.getByRole('region', { name: 'History' })).toContainText(
      'Not the counterparty on the signed instructions',
    );
  });
});

test('the address book pages are rendered on the server, hydrate without a mismatch and fit 390 px', async ({
  page,
  baseURL,
}) => {
  // Three pages, each opened cold, left to settle and scanned by axe: past 30 s on a busy machine.
  test.slow();
  const contact = await proposeContactByApi(page, baseURL ?? '', `SSR desk ${Date.now()}`);
  const said: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') said.push(message.text());
  });
  page.on('pageerror', (error) => said.push(error.message));
  await page.setViewportSize({ width: 390, height: 844 });
  for (const [path, firstScreen, shows] of [
    ['/contacts', 'contacts-results', contact.name],
    [`/contacts/${contact.id}`, 'contact-page', contact.name],
    ['/contacts/new', 'propose-contact-page', 'Propose a contact'],
  ] as const) {
    const response = await page.goto(path);
    const html = (await response?.text()) ?? '';
    expect(html).toContain(`<link rel="expect" href="#${firstScreen}" blocking="render" />`);
    expect(html.slice(html.indexOf('<div id="root">'))).toContain(shows);
    await expectHydrated(page);
    const { scroll, viewport } = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(scroll, `${path} fits the screen`).toBeLessThanOrEqual(viewport);
    await expectNoAxeViolations(page);
  }
  expect(said).toEqual([]);
});
