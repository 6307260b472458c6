import { readFile } from 'node:fs/promises';
import type { APIRequestContext } from '@playwright/test';
import Papa from 'papaparse';
import { expect, signInAs, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { approveOnItsPage } from './held-items.ts';
import { expectHydrated } from './keyboard.ts';
import { csrfOf } from './worker-members.ts';

/**
 * Closing last month and exporting its journal. The worker's
 * organization-wide admin proposes closing the next month to close (last
 * month, on a fresh server) on the Ledger periods page; the worker's second
 * organization-wide admin opens its held item, reads its card (the period,
 * the closing balances, the statement digest) and approves it; the month
 * reads Closed. The first admin then maps the accounts (the vaults through
 * the API, as a set-up; the categories on the mapping page, by keyboard)
 * and downloads the month's journal. Every page is scanned by axe.
 */

test.use({ role: 'orgAdmin' });

/** Every vault of the organization, page by page. */
async function allVaultIds(request: APIRequestContext) {
  const ids: string[] = [];
  let cursor = '';
  for (;;) {
    const res = await request.get(
      `/api/external/vaults/?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.status(), await res.text()).toBe(200);
    const page = (await res.json()) as { results: { id: string }[]; nextCursor?: string | null };
    ids.push(...page.results.map((v) => v.id));
    if (!page.nextCursor) return ids;
    cursor = page.nextCursor;
  }
}

test('last month is closed by two admins on its held item, and its journal downloads once the accounts are mapped', async ({
  page,
  browser,
  members,
  baseURL,
}) => {
  test.slow();
  const base = baseURL ?? '';
  await page.goto('/ledger/periods');
  await expectHydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Ledger periods' })).toBeVisible();
  await expectNoAxeViolations(page);

  // The next month to close is offered; proposed by keyboard.
  const month = page.getByLabel('Month (YYYY-MM)');
  await expect(month).not.toHaveValue('');
  const proposedMonth = await month.inputValue();
  await month.focus();
  await month.press('Enter');
  const open = page.getByRole('link', { name: 'open its held item' });
  await expect(open).toBeVisible();
  const heldPath = new URL((await open.getAttribute('href')) ?? '', base).pathname;

  // The second admin decides it on its held item.
  const other = await browser.newPage();
  try {
    await signInAs(other, members.orgAdmin2, base);
    await other.goto(heldPath);
    await expectHydrated(other);
    await expect(other.getByText('Statement digest (SHA-256)')).toBeVisible();
    await expectNoAxeViolations(other);
    await approveOnItsPage(other);
  } finally {
    await other.close();
  }

  await page.reload();
  await expectHydrated(page);
  const download = page.getByRole('link', { name: /^Download the journal of / });
  await expect(download).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Closed', exact: true })).toBeVisible();

  // The vaults' accounts set through the API, as a set-up; the categories on the page.
  const origin = new URL(base).origin;
  const csrf = await csrfOf(page.request);
  const vaults = (await allVaultIds(page.request)).map((vaultId, i) => ({
    vaultId,
    asset: null,
    account: `1${String(i).padStart(3, '0')}`,
  }));
  const set = await page.request.put('/api/console/ledger/journal/mapping/', {
    headers: { Origin: origin, 'X-CSRF-Token': csrf },
    data: { vaults, categories: {} },
  });
  expect(set.status(), await set.text()).toBe(200);

  await page.goto('/ledger/accounts');
  await expectHydrated(page);
  await expectNoAxeViolations(page);
  const codes = {
    'Transfers in and out (clearing)': '1900',
    'Network fees': '6100',
    'Ramp and swap fees': '6110',
    'Staking rewards': '4200',
    'Opening balances': '3000',
  };
  for (const [label, code] of Object.entries(codes)) await page.getByLabel(label).fill(code);
  await page.getByLabel('Opening balances').press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'The mapping is saved.' })).toBeVisible();

  await page.goto('/ledger/periods');
  await expectHydrated(page);
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: /^Download the journal of / }).click(),
  ]);
  expect(file.suggestedFilename()).toBe(`journal-${proposedMonth}.csv`);
  const text = await readFile((await file.path()) ?? '', 'utf8');
  expect(text.split('\r\n')[0]).toBe(
    'date,account,debit,credit,currency,memo,reference,transaction_id,entry',
  );
  // Read as a CSV reader would (a memo may hold a line break): two lines per entry, each
  // line's date in the month closed.
  const { data, errors } = Papa.parse<Record<string, string>>(text, {
    header: true,
    skipEmptyLines: 'greedy',
  });
  expect(errors).toEqual([]);
  const entries = new Map<string, number>();
  for (const line of data) {
    expect(line.date?.slice(0, 7)).toBe(proposedMonth);
    entries.set(line.entry ?? '', (entries.get(line.entry ?? '') ?? 0) + 1);
  }
  expect([...entries.values()].filter((n) => n !== 2)).toEqual([]);
});
