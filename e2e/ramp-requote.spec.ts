import type { Page } from '@playwright/test';
import { cmp } from '../src/contract/decimal.ts';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { decideByApi, proposeByApi } from './bank-account-data.ts';
import { expectHydrated } from './keyboard.ts';
import { memberPage } from './transfers.ts';
import { DESKTOP_ONLY } from './widths.ts';

/**
 * An approver who decides after a ramp's quote expired approves at a fresh
 * rate: the page says the quote expired and will be re-quoted, the approval
 * re-prices it first, and the page then shows the new quote (its id, "Rate
 * locked until …" again, the re-quote with both rates). The sandbox's rates
 * drift at most ±0.1% a minute, inside the default 0.5% tolerance, so the
 * approval normally counts at once; if the rate did move beyond it the
 * dialog shows both rates and approving again accepts the new quote.
 */

test.use({ role: 'approver' });

interface Vault {
  id: string;
  subOrgId?: string | null;
  wallets?: Array<{ blockchain: string }>;
}

interface RampTransaction {
  status?: string;
  quoteResponse?: { quoteId: string; rate?: string; expiresAt?: string };
  requotes?: Array<{
    quoteId: string;
    previousQuoteId: string;
    previousRate: string;
    rate: string;
    when: string;
  }>;
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function origin(page: Page, baseURL: string) {
  const { csrfToken } = (await (await page.request.get('/auth/session')).json()) as {
    csrfToken: string;
  };
  return { Origin: new URL(baseURL).origin, 'X-CSRF-Token': csrfToken };
}

async function ramp(page: Page, id: string): Promise<RampTransaction> {
  const answer = await page.request.get(`/api/external/transactions/${id}/`);
  expect(answer.status()).toBe(200);
  return (await answer.json()) as RampTransaction;
}

/**
 * A vault and chain holding `amount` USDC. Taken from the end of the list:
 * this ramp holds its amount for over a minute, and the Convert story checks
 * the balance of the first quiet vault it finds.
 */
async function usdcSource(page: Page, amount: string): Promise<{ vault: Vault; chain: string }> {
  const { results } = (await (
    await page.request.get('/api/external/vaults/?limit=100')
  ).json()) as { results: Vault[] };
  for (const vault of [...results].reverse()) {
    const balances = (await (
      await page.request.get(`/api/external/vaults/${vault.id}/balances/`)
    ).json()) as Record<string, Record<string, string>>;
    for (const chain of (vault.wallets ?? []).map((w) => w.blockchain).reverse())
      if (cmp(balances.USDC?.[chain] ?? '0', amount) >= 0) return { vault, chain };
  }
  throw new Error(`no vault holds ${amount} USDC`);
}

/** A PENDING off-ramp of `amount` USDC to a new approved US ACH account, sent through the API by `initiator`. */
async function pendingOffRamp(
  initiator: Page,
  approver: Page,
  baseURL: string,
  amount: string,
): Promise<string> {
  const { vault, chain } = await usdcSource(initiator, amount);
  const account = await proposeByApi(
    initiator,
    baseURL,
    vault.subOrgId ? { subOrgId: vault.subOrgId } : {},
  );
  await decideByApi(approver.request, baseURL, account.id, 'approve');
  const intent = {
    source: { type: 'VAULT', id: vault.id },
    destination: { type: 'BANK_ACCOUNT', id: account.id },
    fromAsset: 'USDC',
    fromAmount: amount,
    fromChain: chain,
    toAsset: 'USD',
  };
  const headers = await origin(initiator, baseURL);
  const quoted = await initiator.request.post('/api/external/transactions/quote/', {
    headers,
    data: { intent },
  });
  expect(quoted.status(), await quoted.text()).toBe(200);
  const { quotes } = (await quoted.json()) as { quotes: Array<{ quoteId: string }> };
  const created = await initiator.request.post('/api/external/transactions/intent/create/', {
    headers,
    data: {
      intent,
      quoteId: quotes[0]?.quoteId,
      externalId: `requote-${amount}`,
      memo: `approved after its quote expired (${amount} USDC)`,
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  return ((await created.json()) as { id: string }).id;
}

for (const width of DESKTOP_ONLY) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('an approval after the quote expired re-prices it first, and the page shows the fresh quote', async ({
      page,
      browser,
      baseURL,
    }) => {
      // The sandbox's quote holds a real 60 s (the server runs on the system
      // clock), and the story waits for the page to say it expired.
      test.setTimeout(240_000);
      const base = baseURL ?? '';
      const initiator = await memberPage(browser, 'initiator', base);
      const amount = `25.${String(Date.now() % 1_000_000).padStart(6, '0')}`;
      const id = await pendingOffRamp(initiator, page, base, amount);
      await initiator.context().close();
      const before = await ramp(page, id);
      const oldQuoteId = before.quoteResponse?.quoteId ?? '';
      expect(oldQuoteId).not.toBe('');

      await page.goto(`/transactions/${id}`);
      await expectHydrated(page);
      const quotePanel = page.getByTestId('ramp-quote');
      const lock = page.getByTestId('ramp-quote-lock');
      await expect(quotePanel).toContainText(oldQuoteId);
      await expect(lock).toHaveText(/^Rate locked until \d\d:\d\d:\d\d UTC \(\d+ s\)$/);
      const oldRate = (await page.getByTestId('ramp-approval-rate').textContent()) ?? '';
      expect(oldRate).not.toBe('');

      // The page's own event: its clock passes the quote's expiry.
      await expect(lock).toHaveText(
        /^Quote expired .+ ago: it will be re-quoted before it executes$/,
        {
          timeout: 90_000,
        },
      );
      await expect(page.getByTestId('ramp-approval-lock')).toHaveText(/^Quote expired /);

      await page.getByRole('button', { name: 'Approve…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Approve this transaction?' });
      await expect(dialog.getByTestId('ramp-approval-lock')).toHaveText(/^Quote expired /);
      await dialog.getByRole('button', { name: 'Approve transaction' }).click();
      // Within the tolerance the approval counts and the dialog closes; beyond
      // it the server refuses it and the dialog shows both rates.
      const moved = dialog.getByTestId('ramp-rate-moved');
      await expect
        .poll(async () =>
          (await moved.isVisible()) ? 'moved' : (await dialog.isHidden()) ? 'approved' : 'waiting',
        )
        .not.toBe('waiting');
      if (await moved.isVisible()) {
        await expect(moved).toContainText('Approving accepts the new quote.');
        await expect(dialog.getByTestId('ramp-approval-lock')).toHaveText(/^Rate locked until /);
        await dialog.getByRole('button', { name: 'Approve transaction' }).click();
        await expect(dialog).toBeHidden();
      }

      // The server priced it again at the approval and recorded it.
      const after = await ramp(page, id);
      const newQuote = after.quoteResponse;
      const requote = after.requotes?.find((r) => r.when === 'APPROVAL');
      expect(requote?.previousQuoteId).toBe(oldQuoteId);
      expect(newQuote?.quoteId).toBe(requote?.quoteId);
      expect(newQuote?.quoteId).not.toBe(oldQuoteId);
      expect(Date.parse(newQuote?.expiresAt ?? '')).toBeGreaterThan(Date.now());

      // The page shows the fresh quote, not the stale one.
      await expect(quotePanel).toContainText(newQuote?.quoteId ?? '');
      await expect(quotePanel).not.toContainText(oldQuoteId);
      await expect(lock).toHaveText(/^Rate locked until \d\d:\d\d:\d\d UTC \(\d+ s\)$/);
      const requotes = page.getByRole('list', { name: 'Re-quotes' }).getByRole('listitem');
      await expect(requotes).toHaveCount(1);
      await expect(requotes.first()).toHaveText(
        new RegExp(
          `at an approval: rate ${escaped(requote?.previousRate ?? '')} → ${escaped(newQuote?.rate ?? '')}, (within|beyond) the 0\\.5% tolerance$`,
        ),
      );
      await expectNoAxeViolations(page);
    });
  });
}
