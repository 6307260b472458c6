import type { Locator, Page } from '@playwright/test';
import { cmp } from '../src/contract/decimal.ts';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { choose, openForm } from './create-forms.ts';
import { memberPage } from './transfers.ts';
import { BOTH_WIDTHS } from './widths.ts';

/**
 * The approval card: the initiator's review shows the card the server
 * computes from the body about to be sent, and the approver's page shows the
 * card of the created transaction; both say the same destination, amount,
 * fee ceiling, vault balances before → after and rule. An ICP transfer: the
 * Internet Computer's ledger fee is fixed, so the fee ceiling cannot move
 * between the review and the approval.
 */

interface Vault {
  id: string;
  vaultName?: string;
  wallets?: Array<{ blockchain: string }>;
}

/** A vault holding at least 1 ICP, and another of ours on the Internet Computer. */
async function icpVaults(page: Page): Promise<{ from: string; to: string }> {
  const vaults = (await (await page.request.get('/api/external/vaults/?limit=100')).json()) as {
    results: Vault[];
  };
  const onIcp = vaults.results.filter(
    (v) => v.vaultName && v.wallets?.some((w) => w.blockchain === 'ICP'),
  );
  for (const from of onIcp) {
    const balances = (await (
      await page.request.get(`/api/external/vaults/${from.id}/balances/`)
    ).json()) as Record<string, Record<string, string>>;
    const to = onIcp.find((v) => v.id !== from.id);
    if (to && cmp(balances.ICP?.ICP ?? '0', '1') >= 0)
      return { from: from.vaultName ?? '', to: to.vaultName ?? '' };
  }
  throw new Error('no two vaults on the Internet Computer, one holding ICP');
}

/** An amount no other story sends: 0.00ddddd1 ICP. */
function uniqueAmount(): string {
  const digits = [...crypto.getRandomValues(new Uint8Array(5))].map((b) => b % 10).join('');
  return `0.00${digits}1`;
}

/**
 * A card's balances, each line "Vault, ICP (Internet Computer): before → after (change)"
 * with its two balances left out: other stories' transfers move them between the two
 * readings, while the vaults touched and what the transfer changes in each stay.
 */
function balanceChanges(text: string): string[] {
  const lines = text.split('\n').filter(Boolean);
  for (const line of lines) expect(line).toMatch(/: [\d,.]+ → [\d,.]+ \([−+][\d,.]+\)$/);
  return lines.map((line) => line.replace(/: [\d,.]+ → [\d,.]+ /, ': '));
}

/** The facts both cards must agree on, as the card shows them. */
async function factsOf(card: Locator) {
  await expect(card.getByTestId('card-rule')).toBeVisible();
  const text = async (id: string) => (await card.getByTestId(id).innerText()).trim();
  return {
    destination: await text('card-destination'),
    amount: await text('card-amount'),
    feeCeiling: await text('card-fee-ceiling'),
    balances: balanceChanges(await text('card-balances')),
    rule: await text('card-rule'),
  };
}

for (const width of BOTH_WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 }, role: 'initiator' });

    test("a transfer's card is the same on the review and on the approval page", async ({
      page,
      browser,
      baseURL,
    }) => {
      // Two members each sign in and render a page, as the other two-member stories do.
      test.slow();
      const vaults = await icpVaults(page);
      const amount = uniqueAmount();
      const form = await openForm(page, 'TRANSFER');
      await choose(form.getByLabel('From vault'), vaults.from);
      await form.getByLabel('Chain', { exact: true }).selectOption('ICP');
      await choose(form.getByLabel('Asset', { exact: true }), 'ICP');
      await form.getByRole('radio', { name: 'Another vault' }).check();
      await choose(form.getByLabel('Destination vault'), vaults.to);
      await form.getByLabel(/^Amount/).fill(amount);
      await form.getByRole('button', { name: 'Review' }).click();

      const review = page.getByRole('region', { name: 'What approvers will see' });
      const reviewed = await factsOf(review);
      expect(reviewed.destination).toContain(vaults.to);
      expect(reviewed.destination).toContain('One of our vaults');
      expect(reviewed.amount).toBe(`${amount} ICP`);
      expect(reviewed.feeCeiling).toMatch(/^At most [\d.]+ ICP/);
      expect(reviewed.balances).toEqual([
        expect.stringContaining(vaults.from),
        expect.stringContaining(vaults.to),
      ]);
      await expectNoAxeViolations(page);

      await page.getByRole('button', { name: 'Send transaction' }).click();
      await expect(page).toHaveURL(/\/transactions\/(?!new)[^/?]+$/);
      const id = new URL(page.url()).pathname.split('/').at(-1) ?? '';

      const approver = await memberPage(browser, 'approver', baseURL ?? '');
      await approver.goto(`/transactions/${id}`);
      const approving = approver.getByRole('region', { name: 'What you are approving' });
      expect(await factsOf(approving)).toEqual(reviewed);
      await expectNoAxeViolations(approver);
      await approver.context().close();
    });
  });
}
