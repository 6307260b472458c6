import type { ConsoleMessage, Page } from '@playwright/test';
import { expect, test } from './auth.ts';
import { expectHydrated } from './keyboard.ts';
import { proposeByApi } from './bank-account-data.ts';
import { proposeContactByApi } from './contact-data.ts';
import { createTransfer, memberPage } from './transfers.ts';

/**
 * Every signed-in page's first screen is rendered on the server through one
 * path (ARCHITECTURE.md, "Server-rendered first screen"): opened cold, each
 * arrives with its content and state in the HTML, asks the browser not to
 * paint before the element closing its first screen, and is taken over by
 * the app without a hydration mismatch — React reports one as a console
 * error ("Hydration failed", "didn't match", a recoverable error) and
 * redraws the page, so any such message fails the test.
 */

const HYDRATION =
  /hydrat|did not match|didn't match|server rendered (HTML|text)|recoverable|Minified React error #(418|419|421|422|423|425)/i;

/** Console errors and warnings and uncaught errors, from the first byte on. */
function watchConsole(page: Page): string[] {
  const said: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error' || message.type() === 'warning') said.push(message.text());
  });
  page.on('pageerror', (error) => said.push(error.message));
  return said;
}

/** Opens `path` cold and waits until the app has taken it over. */
async function openCold(page: Page, path: string): Promise<string> {
  const response = await page.goto(path);
  expect(response?.status()).toBe(200);
  const html = (await response?.text()) ?? '';
  // Controls are held disabled until hydration (lib/use-hydrated.ts).
  await expectHydrated(page);
  return html;
}

test('every signed-in page is rendered on the server and hydrated without a mismatch', async ({
  page,
  browser,
  baseURL,
  world,
}) => {
  test.slow();
  const transactionId = await createTransfer(page, baseURL ?? '', {
    memo: `ssr-all-${Date.now()}`,
  });
  const account = await proposeByApi(page, baseURL ?? '');
  const contact = await proposeContactByApi(page, baseURL ?? '', `SSR contact ${Date.now()}`);
  // The audit log is read only by an admin of the whole organization; every other page by the
  // worker's admin, held to its sub-organization.
  const orgAdmin = await memberPage(browser, 'orgAdmin', baseURL ?? '');
  const pages: Array<{
    path: string;
    firstScreen: string;
    shows: RegExp | string;
    on?: Page;
  }> = [
    { path: '/transactions', firstScreen: 'transactions-results', shows: transactionId },
    { path: `/transactions/${transactionId}`, firstScreen: 'transaction-page', shows: 'Status' },
    { path: '/transactions/new', firstScreen: 'new-transaction-page', shows: 'New transaction' },
    {
      path: '/transactions/new?category=CONTRACT_CALL',
      firstScreen: 'new-transaction-page',
      shows: 'Contract call',
    },
    {
      path: '/transactions/new?category=STAKE',
      firstScreen: 'new-transaction-page',
      shows: 'Stake',
    },
    {
      path: '/transactions/new?category=DELEGATE_RESOURCE',
      firstScreen: 'new-transaction-page',
      shows: 'Resource delegation',
    },
    { path: '/approvals', firstScreen: 'approvals-results', shows: transactionId },
    { path: '/bank-accounts', firstScreen: 'bank-accounts-results', shows: account.accountName },
    {
      path: `/bank-accounts/${account.id}`,
      firstScreen: 'bank-account-page',
      shows: account.accountName,
    },
    {
      path: '/bank-accounts/new',
      firstScreen: 'propose-bank-account-page',
      shows: 'Propose a bank account',
    },
    { path: '/convert', firstScreen: 'convert-page', shows: 'Off-ramp' },
    { path: '/convert?kind=ON_RAMP', firstScreen: 'convert-page', shows: 'On-ramp' },
    { path: '/convert?kind=FX', firstScreen: 'convert-page', shows: 'FX' },
    { path: '/contacts', firstScreen: 'contacts-results', shows: contact.name },
    { path: `/contacts/${contact.id}`, firstScreen: 'contact-page', shows: contact.name },
    { path: '/contacts/new', firstScreen: 'propose-contact-page', shows: 'Propose a contact' },
    { path: '/audit', firstScreen: 'audit-results', shows: 'Audit log', on: orgAdmin },
    { path: '/staff', firstScreen: 'staff-page', shows: 'Staff' },
    { path: '/account', firstScreen: 'account-page', shows: 'Your account' },
    { path: '/policies', firstScreen: 'policies-page', shows: 'Otherwise' },
    { path: '/', firstScreen: 'overview-page', shows: 'Total holdings' },
    { path: '/vaults', firstScreen: 'vaults-page', shows: world.funded.name },
    { path: `/vaults/${world.funded.id}`, firstScreen: 'vault-page', shows: 'Deposit addresses' },
    {
      path: '/settings/webhooks',
      firstScreen: 'webhooks-page',
      shows: 'Register an endpoint',
      on: orgAdmin,
    },
  ];
  for (const { path, firstScreen, shows, on = page } of pages) {
    await test.step(path, async () => {
      const said = watchConsole(on);
      const html = await openCold(on, path);
      expect(html, `${path} arrives with its state`).toContain('id="console-server-state"');
      expect(html).toContain(`<link rel="expect" href="#${firstScreen}" blocking="render" />`);
      expect(html).toMatch(new RegExp(`id="${firstScreen}"`));
      const root = html.slice(
        html.indexOf('<div id="root">'),
        html.indexOf('console-server-state'),
      );
      if (typeof shows === 'string') expect(root).toContain(shows);
      else expect(root).toMatch(shows);
      expect(said.filter((text) => HYDRATION.test(text))).toEqual([]);
      expect(said).toEqual([]);
      on.removeAllListeners('console');
      on.removeAllListeners('pageerror');
    });
  }
  await orgAdmin.context().close();
});
