import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect } from './auth.ts';
import { focusLive } from './keyboard.ts';

/** What the /transactions/new browser tests share: the create endpoint, counting sends, finding results. */

export const CREATE_PATH = '/api/external/transactions/';

/** Counts create POSTs the page makes. */
export function countCreates(page: Page): () => number {
  let n = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && new URL(r.url()).pathname === CREATE_PATH) n += 1;
  });
  return () => n;
}

export async function transactionsWithExternalId(
  request: APIRequestContext,
  externalId: string,
): Promise<Array<Record<string, unknown>>> {
  const res = await request.get(
    `${CREATE_PATH}?externalId=${encodeURIComponent(externalId)}&limit=100`,
  );
  // The status and body say why, should the list ever refuse (CI once saw it fail unexplained).
  expect(res.ok(), `${res.status()} ${await res.text()}`).toBe(true);
  return ((await res.json()) as { results: Array<Record<string, unknown>> }).results;
}

export async function openForm(page: Page, category: string): Promise<Locator> {
  await page.goto(`/transactions/new?category=${category}`);
  await expect(page.getByRole('heading', { name: 'New transaction', level: 1 })).toBeVisible();
  const form = page.getByRole('form');
  await expect(form).toBeVisible();
  // The external ID is made in the browser once it takes the page over: read before then, it is empty.
  await expect(form.getByLabel('External ID')).not.toHaveValue('');
  return form;
}

/** Each kind's name in the form page's "Kind of transaction" links, and its form's name. */
const KINDS: Record<string, { link: string; form: string }> = {
  TRANSFER: { link: 'Transfer', form: 'Transfer' },
  CONTRACT_CALL: { link: 'Contract call', form: 'Contract call' },
  STAKE: { link: 'Stake', form: 'Stake' },
  DELEGATE_RESOURCE: { link: 'Delegate resource', form: 'Resource delegation' },
};

/**
 * Moves an open form page to another kind with its "Kind of transaction"
 * link: the app's own navigation, so the page is not loaded again. The
 * kind's form starts empty, with an external ID of its own.
 */
export async function switchKind(page: Page, category: string): Promise<Locator> {
  const kind = KINDS[category];
  if (!kind) throw new Error(`no form for ${category}`);
  await page
    .getByRole('navigation', { name: 'Kind of transaction' })
    .getByRole('link', { name: kind.link, exact: true })
    .click();
  await expect(page).toHaveURL(new RegExp(`[?&]category=${category}(&|$)`));
  const form = page.getByRole('form', { name: kind.form });
  await expect(form.getByLabel('External ID')).not.toHaveValue('');
  return form;
}

/** Picks the option whose text starts with `text` (labels carry balances and addresses). */
export async function choose(select: Locator, text: string): Promise<void> {
  const option = select.locator('option', { hasText: text }).first();
  await expect(option).toBeAttached();
  await select.selectOption((await option.getAttribute('value')) ?? '');
}

export async function csrf(page: Page): Promise<string> {
  const res = await page.request.get('/auth/session');
  return ((await res.json()) as { csrfToken: string }).csrfToken;
}

/**
 * Drops the answer to the first create POST at the network layer: the
 * request reaches the real server (which creates the transaction) and the
 * browser sees a reset connection instead of its answer.
 */
export async function loseFirstCreateAnswer(page: Page): Promise<() => boolean> {
  let dropped = false;
  await page.route(`**${CREATE_PATH}`, async (route) => {
    if (route.request().method() !== 'POST' || dropped) return route.fallback();
    dropped = true;
    await route.fetch();
    await route.abort('connectionreset');
  });
  return () => dropped;
}

/** The new transaction's page, and the one transaction with `externalId` it shows. */
export async function expectOneTransactionPage(
  page: Page,
  externalId: string,
): Promise<Record<string, unknown>> {
  await expect(page).toHaveURL(/\/transactions\/(?!new)[^/?]+$/);
  const created = await transactionsWithExternalId(page.request, externalId);
  expect(created).toHaveLength(1);
  const [transaction] = created;
  expect(page.url()).toContain(`/transactions/${String(transaction?.id)}`);
  return transaction ?? {};
}

/**
 * Sends from the review by keyboard: the "What approvers will see" card is worked out after the
 * review shows and pushes the button down as it arrives, and a click aimed just before that
 * landed beside the button (seen once on CI: no send was made). A focused button's Enter does
 * not depend on where the button stands.
 */
export async function sendFromReview(page: Page): Promise<void> {
  await focusLive(page.getByRole('button', { name: 'Send transaction' }));
  await page.keyboard.press('Enter');
}
