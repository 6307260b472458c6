import type { Page } from '@playwright/test';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { expectHydrated } from './keyboard.ts';
import { createTransfer, memberPage } from './transfers.ts';

test.use({ role: 'approver' });

const RECIPIENT = '0x1111111111111111111111111111111111111111';
const word = (hex: string) => hex.replace(/^0x/, '').padStart(64, '0');

/** A contract call from an Ethereum vault: an ERC-20 transfer of 2,500,000 units to RECIPIENT. */
async function createErc20TransferCall(page: Page, baseURL: string): Promise<string> {
  const session = (await (await page.request.get('/auth/session')).json()) as { csrfToken: string };
  const vaults = (await (await page.request.get('/api/external/vaults/?limit=100')).json()) as {
    results: Array<{ id: string; wallets?: Array<{ blockchain: string }> }>;
  };
  const vault = vaults.results.find((v) => v.wallets?.some((w) => w.blockchain === 'ETHEREUM'));
  if (!vault) throw new Error('the seed has no Ethereum vault');
  const response = await page.request.post('/api/external/transactions/', {
    headers: { Origin: new URL(baseURL).origin, 'X-CSRF-Token': session.csrfToken },
    data: {
      category: 'CONTRACT_CALL',
      vaultId: vault.id,
      blockChain: 'ETHEREUM',
      data: {
        callData: `0xa9059cbb${word(RECIPIENT)}${word((2_500_000).toString(16))}`,
        toAddress: '0xdac17f958d2ee523a2206206994597c13d831ec7',
      },
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

test('a contract call is approved knowing what it calls: the decoded ERC-20 transfer', async ({
  members,
  page,
  browser,
  baseURL,
}) => {
  const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
  const id = await createErc20TransferCall(initiator, baseURL ?? '');
  await initiator.context().close();

  await page.goto(`/transactions/${id}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contract call');
  await expectHydrated(page);
  await page.getByRole('button', { name: 'Approve…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve this transaction?' });
  await expect(dialog).toContainText('transfer(address,uint256)');
  await expect(dialog).toContainText(RECIPIENT);
  await expect(dialog).toContainText('2,500,000');
  await expect(dialog).toContainText('0xdac17f958d2ee523a2206206994597c13d831ec7');
  await expect(dialog).toContainText('Initiator');
  await expect(dialog).toContainText(members.initiator.name);
  await expect(dialog).not.toContainText('Not decoded');
  await expectNoAxeViolations(page);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
});

test('an undecodable call says it was not decoded and shows its raw hex', async ({
  page,
  browser,
  baseURL,
}) => {
  const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
  const session = (await (await initiator.request.get('/auth/session')).json()) as {
    csrfToken: string;
  };
  const vaults = (await (
    await initiator.request.get('/api/external/vaults/?limit=100')
  ).json()) as {
    results: Array<{ id: string; wallets?: Array<{ blockchain: string }> }>;
  };
  const vault = vaults.results.find((v) => v.wallets?.some((w) => w.blockchain === 'ETHEREUM'));
  const created = await initiator.request.post('/api/external/transactions/', {
    headers: { Origin: new URL(baseURL ?? '').origin, 'X-CSRF-Token': session.csrfToken },
    data: {
      category: 'CONTRACT_CALL',
      vaultId: vault?.id,
      blockChain: 'ETHEREUM',
      data: { callData: '0xdeadbeef0001', toAddress: RECIPIENT },
    },
  });
  expect(created.status()).toBe(200);
  const { id } = (await created.json()) as { id: string };
  await initiator.context().close();

  await page.goto(`/transactions/${id}`);
  await expectHydrated(page);
  await page.getByRole('button', { name: 'Approve…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve this transaction?' });
  await expect(dialog.getByRole('note').filter({ hasText: 'Not decoded' })).toBeVisible();
  await expect(dialog).toContainText('0xdeadbeef0001');
});

test('a double-clicked approve records exactly one decision and no failed one', async ({
  page,
  browser,
  baseURL,
}) => {
  const initiator = await memberPage(browser, 'initiator', baseURL ?? '');
  const id = await createTransfer(initiator, baseURL ?? '', { memo: 'double click' });
  await initiator.context().close();

  const actions: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/action/')) actions.push(r.url());
  });
  await page.goto(`/transactions/${id}`);
  await expectHydrated(page);
  await page.getByRole('button', { name: 'Approve…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Approve this transaction?' });
  await dialog.getByRole('button', { name: 'Approve transaction' }).dblclick();
  await expect(dialog).toBeHidden();
  const outcome = page.getByRole('status').filter({ hasText: 'Approved.' });
  await expect(outcome).toBeVisible();
  // Focus lands on the outcome, not on <body>.
  await expect(outcome).toBeFocused();
  expect(actions).toHaveLength(1);

  // What the audit log kept: one approval, nothing failed or refused.
  // The audit log is the organization's record: read by an admin of the whole organization.
  const admin = await memberPage(browser, 'orgAdmin', baseURL ?? '');
  const audit = (await (
    await admin.request.get(`/api/console/audit/?entityId=${id}&limit=100`)
  ).json()) as { results: Array<{ action: string; outcome: string }> };
  await admin.context().close();
  const decisions = audit.results.filter((e) => e.action.startsWith('change_request.'));
  expect(decisions.map((d) => [d.action, d.outcome])).toEqual([
    ['change_request.approve', 'success'],
  ]);
});
