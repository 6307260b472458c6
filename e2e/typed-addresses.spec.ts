import type { Page } from '@playwright/test';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { choose, countCreates, csrf, openForm } from './create-forms.ts';
import { memberPage } from './transfers.ts';
import { DESKTOP_ONLY } from './widths.ts';

/**
 * What a person types and what a person approves: a mistyped address is
 * refused by the form and by the API, and a contract call reads in the inbox
 * as what it does.
 */

// EIP-55's own example with the case of its last letter flipped: one mistyped character.
const BROKEN_CHECKSUM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';
const word = (hex: string) => hex.replace(/^0x/, '').padStart(64, '0');

interface Vault {
  id: string;
  vaultName?: string;
  wallets?: Array<{ blockchain: string; address?: string }>;
}

/** One of the worker's own vaults, by name, with its Ethereum address. */
async function ethereumVault(page: Page, name: string): Promise<Vault & { address: string }> {
  const vaults = (await (await page.request.get('/api/external/vaults/?limit=100')).json()) as {
    results: Vault[];
  };
  const vault = vaults.results.find((v) => v.vaultName === name);
  const address = vault?.wallets?.find((w) => w.blockchain === 'ETHEREUM')?.address;
  if (!vault || !address) throw new Error(`no vault "${name}" on Ethereum`);
  return { ...vault, address };
}

/** A random address, all lowercase (no checksum), for a spender no other story uses. */
function freshAddress(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return `0x${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

for (const width of DESKTOP_ONLY) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test.describe('as an initiator', () => {
      test.use({ role: 'initiator' });

      test("a mistyped checksum and the vault's own address are refused, by the form and by the API", async ({
        page,
        baseURL,
        world,
      }) => {
        const creates = countCreates(page);
        const form = await openForm(page, 'TRANSFER');
        await choose(form.getByLabel('From vault'), world.funded.name);
        await form.getByLabel('Chain', { exact: true }).selectOption('ETHEREUM');
        await choose(form.getByLabel('Asset', { exact: true }), 'ETH');
        await form.getByRole('radio', { name: 'External address' }).check();
        const address = form.getByLabel('Destination address');
        await address.fill(BROKEN_CHECKSUM);
        await form.getByLabel(/^Amount/).fill('0.001');
        await form.getByRole('button', { name: 'Review' }).click();
        await expect(address).toHaveAttribute('aria-invalid', 'true');
        await expect(address).toHaveAccessibleDescription(/EIP-55 checksum/);
        await expectNoAxeViolations(page);

        // The vault's own address, typed: a transfer to itself.
        const treasury = await ethereumVault(page, world.funded.name);
        await address.fill(treasury.address.toLowerCase());
        await form.getByRole('button', { name: 'Review' }).click();
        await expect(address).toHaveAccessibleDescription(/source vault's own address/);
        expect(creates()).toBe(0);

        // The same rules hold for a caller that skips the form.
        const headers = { Origin: new URL(baseURL ?? '').origin, 'X-CSRF-Token': await csrf(page) };
        const send = (id: string) =>
          page.request.post('/api/external/transactions/', {
            headers,
            data: {
              category: 'TRANSFER',
              source: { type: 'VAULT', id: treasury.id },
              destination: { type: 'EXTERNAL_ADDRESS', id },
              amount: '0.001',
              asset: 'ETH',
              blockChain: 'ETHEREUM',
            },
          });
        for (const [id, rule] of [
          [BROKEN_CHECKSUM, /EIP-55 checksum/],
          [treasury.address, /cannot send to itself/],
        ] as const) {
          const refused = await send(id);
          expect(refused.status()).toBe(400);
          const body = (await refused.json()) as {
            fields: Array<{ field: string; message: string }>;
          };
          expect(body.fields).toContainEqual({
            field: 'destination.id',
            message: expect.stringMatching(rule),
          });
        }
      });

      test('an address that is one of our vaults is named, and a lookalike is flagged', async ({
        page,
        world,
      }) => {
        const form = await openForm(page, 'TRANSFER');
        await choose(form.getByLabel('From vault'), world.funded.name);
        await form.getByLabel('Chain', { exact: true }).selectOption('ETHEREUM');
        await form.getByRole('radio', { name: 'External address' }).check();
        const other = await ethereumVault(page, world.empty.name);
        const otherAddress = other.address;
        const address = form.getByLabel('Destination address');
        await address.fill(otherAddress.toLowerCase());
        await expect(address).toHaveAccessibleDescription(
          new RegExp(`our vault "${other.vaultName}"`),
        );
        // Same first and last four characters, another middle.
        const body = otherAddress.slice(2).toLowerCase();
        const middle = body.slice(4, -4) === '0'.repeat(32) ? '1'.repeat(32) : '0'.repeat(32);
        await address.fill(`0x${body.slice(0, 4)}${middle}${body.slice(-4)}`);
        await expect(address).toHaveAccessibleDescription(/address poisoning/);
        await expectNoAxeViolations(page);
      });
      test('the review of a contract call says what the call does', async ({ page, world }) => {
        const spender = freshAddress();
        const form = await openForm(page, 'CONTRACT_CALL');
        await choose(form.getByLabel('Vault', { exact: true }), world.funded.name);
        await form.getByLabel('Chain', { exact: true }).selectOption('ETHEREUM');
        await form
          .getByLabel('Call data (hex)')
          .fill(`0x095ea7b3${word(spender)}${'f'.repeat(64)}`);
        await form.getByLabel('Contract address (optional)').fill(USDC);
        await form.getByRole('button', { name: 'Review' }).click();
        const review = page.getByRole('region', { name: /Review the contract call/ });
        await expect(review).toContainText(
          `Unlimited USDC approval to ${spender.slice(0, 6)}…${spender.slice(-4)} on Ethereum`,
        );
        await expectNoAxeViolations(page);
      });
    });

    test.describe('as an approver', () => {
      test.use({ role: 'approver' });

      test('the inbox row of an unlimited approval names it', async ({
        page,
        browser,
        baseURL,
        world,
      }) => {
        const spender = freshAddress();
        const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
        const treasury = await ethereumVault(initiator, world.funded.name);
        const created = await initiator.request.post('/api/external/transactions/', {
          headers: {
            Origin: new URL(baseURL ?? '').origin,
            'X-CSRF-Token': await csrf(initiator),
          },
          data: {
            category: 'CONTRACT_CALL',
            vaultId: treasury.id,
            blockChain: 'ETHEREUM',
            data: { callData: `0x095ea7b3${word(spender)}${'f'.repeat(64)}`, toAddress: USDC },
          },
        });
        expect(created.status(), await created.text()).toBe(200);
        const { id } = (await created.json()) as { id: string };
        await initiator.context().close();

        const named = `Unlimited USDC approval to ${spender.slice(0, 6)}…${spender.slice(-4)}`;
        await page.goto('/approvals');
        const row = page.locator(`[data-approval-id="${id}"]`);
        await expect(row).toContainText(`${named} on Ethereum`);
        await expect(row).not.toContainText('Contract call of 0');
        await expectNoAxeViolations(page);

        // The transactions list says the same of it.
        await page.goto(`/transactions?category=CONTRACT_CALL`);
        await expect(page.locator(`[data-transaction-id="${id}"]`)).toContainText(named);
        await expectNoAxeViolations(page);
      });
    });
  });
}
