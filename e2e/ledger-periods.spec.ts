import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Browser } from '@playwright/test';
import Papa from 'papaparse';
import { cmp } from '../src/contract/decimal.ts';
import { SANDBOX_STAKING_EPOCHS_MAX } from '../src/contract/sandbox-world.ts';
import { expect, signInAs, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { approveOnItsPage } from './held-items.ts';
import { expectHydrated } from './keyboard.ts';
import { approveByApi, memberPage } from './transfers.ts';
import { csrfOf } from './worker-members.ts';

/**
 * Closing last month and exporting its journal. So that the month holds
 * something of the story's own, the worker's vault stakes SOL and its stake
 * is moved back into last month through the sandbox world's staking-epochs
 * control: the epochs that thereby ended are paid, each dated at its end.
 * The worker's organization-wide admin proposes closing the next month to
 * close (last month, on a fresh server) on the Ledger periods page; the
 * worker's second organization-wide admin opens its held item, reads its
 * card (the period, the closing balances, the statement digest) and
 * approves it; the month reads Closed. The first admin then maps the
 * accounts (the vaults through the API, as a set-up; the categories on the
 * mapping page, by keyboard) and downloads the month's journal, where each
 * of those rewards is an entry: the vault's account debited, staking
 * rewards credited. Every page is scanned by axe.
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

/**
 * Staking rewards of the worker's funded vault dated inside `month` (UTC):
 * a stake of SOL (its initiator sends, its admin approves) moved back by
 * whole two-day epochs to the middle of the month, the epochs since then
 * paid at once. Those more than a day from the month's edges are answered,
 * so they are in it in any zone.
 */
async function rewardsIn(
  browser: Browser,
  base: string,
  vaultId: string,
  month: string,
): Promise<Array<{ at: string; amount: string }>> {
  const origin = new URL(base).origin;
  const initiator = await memberPage(browser, 'initiator', base);
  const admin = await memberPage(browser, 'admin', base);
  try {
    const sent = await initiator.request.post('/api/external/transactions/', {
      headers: { Origin: origin, 'X-CSRF-Token': await csrfOf(initiator.request) },
      data: {
        category: 'STAKE',
        source: { type: 'VAULT', id: vaultId },
        amount: '100',
        asset: 'SOL',
        blockChain: 'SOLANA',
        externalId: `ledger-periods-stake-${Date.now()}`,
      },
    });
    expect(sent.status(), await sent.text()).toBe(200);
    const { id } = (await sent.json()) as { id: string };
    await approveByApi(admin, base, id);
    await expect
      .poll(
        async () =>
          (
            (await (await admin.request.get(`/api/external/transactions/${id}/`)).json()) as {
              status?: string;
            }
          ).status,
        { timeout: 60_000 },
      )
      .toBe('COMPLETED');
    const middle = Date.parse(`${month}-15T12:00:00Z`);
    const epochs = Math.min(
      SANDBOX_STAKING_EPOCHS_MAX,
      Math.ceil((Date.now() - middle) / (2 * DAY)) + 1,
    );
    const passed = await admin.request.post(
      `/api/console/sandbox/vaults/${vaultId}/staking-epochs/`,
      {
        headers: { Origin: origin, 'X-CSRF-Token': await csrfOf(admin.request) },
        data: { chain: 'SOLANA', epochs },
      },
    );
    expect(passed.status(), await passed.text()).toBe(200);
    const { rewards } = (await passed.json()) as { rewards: Array<{ at: string; amount: string }> };
    const start = Date.parse(`${month}-01T00:00:00Z`);
    const end = Date.parse(`${nextMonthOf(month)}-01T00:00:00Z`);
    const inside = rewards.filter((r) => {
      const at = Date.parse(r.at);
      return at > start + DAY && at < end - DAY;
    });
    expect(inside.length, JSON.stringify(rewards)).toBeGreaterThan(0);
    return inside;
  } finally {
    await initiator.context().close();
    await admin.context().close();
  }
}

const DAY = 86_400_000;

/** `YYYY-MM` of the month after. */
function nextMonthOf(month: string): string {
  const [year = 0, m = 0] = month.split('-').map((part) => Number.parseInt(part, 10));
  return m === 12 ? `${year + 1}-01` : `${year}-${String(m + 1).padStart(2, '0')}`;
}

test('last month is closed by two admins on its held item, and its journal downloads once the accounts are mapped', async ({
  page,
  browser,
  members,
  baseURL,
  world,
}) => {
  test.slow();
  const base = baseURL ?? '';
  await page.goto('/ledger/periods');
  await expectHydrated(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Ledger periods' })).toBeVisible();
  await expectNoAxeViolations(page);

  // The next month to close is offered; something of this story's own is put in it first.
  const month = page.getByLabel('Month (YYYY-MM)');
  await expect(month).not.toHaveValue('');
  const proposedMonth = await month.inputValue();
  const rewards = await rewardsIn(browser, base, world.funded.id, proposedMonth);
  // Proposed by keyboard.
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
  // Each of the story's rewards is an entry of its own: the vault's account debited, staking
  // rewards credited, in SOL.
  const vaultAccount = vaults.find((v) => v.vaultId === world.funded.id)?.account;
  const rewardEntries = new Map<string, Array<Record<string, string>>>();
  for (const line of data)
    if (line.memo?.startsWith(`Staking reward SOL on SOLANA, ${world.funded.name}`))
      rewardEntries.set(line.entry ?? '', [...(rewardEntries.get(line.entry ?? '') ?? []), line]);
  for (const lines of rewardEntries.values())
    expect(lines.map((l) => [l.account, l.debit ? 'debit' : 'credit', l.currency])).toEqual([
      [vaultAccount, 'debit', 'SOL'],
      [codes['Staking rewards'], 'credit', 'SOL'],
    ]);
  const amounts = [...rewardEntries.values()].map((lines) => lines[0]?.debit ?? '');
  for (const reward of rewards) {
    const found = amounts.findIndex((amount) => cmp(amount, reward.amount) === 0);
    expect(found, `the reward of ${reward.at}, ${reward.amount} SOL`).toBeGreaterThanOrEqual(0);
    amounts.splice(found, 1);
  }
});
