import { expect, type Browser, type Page } from '@playwright/test';
import { cmp } from '../src/contract/decimal.ts';
import { signIn, type MemberKey } from './auth.ts';

/**
 * Test data through the API, as a member of `role` in a browser context of
 * its own: an ETH transfer between two of the organization's vaults. The
 * create form is not what these tests are about.
 */
export async function memberPage(
  browser: Browser,
  role: MemberKey,
  baseURL: string,
): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, role, baseURL);
  return page;
}

interface Vault {
  id: string;
  subOrgId?: string | null;
  wallets?: Array<{ blockchain: string }>;
}

/**
 * `from: 'apart'` spends from the last funded Ethereum vault in another
 * sub-organization than the first funded one: a spec whose approvals must not
 * move the counts other specs compare (the navigation badge) keeps to it.
 */
export async function createTransfer(
  page: Page,
  baseURL: string,
  options: {
    memo?: string;
    feeTier?: 'LOW' | 'MEDIUM' | 'HIGH';
    amount?: string;
    from?: 'first' | 'apart';
  } = {},
): Promise<string> {
  const session = (await (await page.request.get('/auth/session')).json()) as { csrfToken: string };
  const vaults = (await (await page.request.get('/api/external/vaults/?limit=100')).json()) as {
    results: Vault[];
  };
  const onEthereum = vaults.results.filter((v) =>
    v.wallets?.some((w) => w.blockchain === 'ETHEREUM'),
  );
  const funded: Vault[] = [];
  for (const vault of onEthereum) {
    const balances = (await (
      await page.request.get(`/api/external/vaults/${vault.id}/balances/`)
    ).json()) as Record<string, Record<string, string>>;
    if (cmp(balances.ETH?.ETHEREUM ?? '0', '1') >= 0) {
      funded.push(vault);
      if (options.from !== 'apart') break;
    }
  }
  const first = funded[0];
  const source =
    options.from === 'apart'
      ? (funded.findLast((v) => v.subOrgId && v.subOrgId !== first?.subOrgId) ?? first)
      : first;
  const destination = onEthereum.find((v) => v.id !== source?.id);
  if (!source || !destination) throw new Error('the seed has no two ETH vaults to move between');
  const response = await page.request.post('/api/external/transactions/', {
    headers: { Origin: new URL(baseURL).origin, 'X-CSRF-Token': session.csrfToken },
    data: {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: source.id },
      destination: { type: 'VAULT', id: destination.id },
      amount: options.amount ?? '0.001',
      asset: 'ETH',
      blockChain: 'ETHEREUM',
      ...(options.memo ? { memo: options.memo } : {}),
      ...(options.feeTier ? { gasParams: { feeTier: options.feeTier } } : {}),
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

/** Approves through the API as the member signed in on `page` (for setup, not for the flow under test). */
export async function approveByApi(
  page: Page,
  baseURL: string,
  transactionId: string,
): Promise<void> {
  const session = (await (await page.request.get('/auth/session')).json()) as { csrfToken: string };
  const message = await page.request.get(
    `/api/external/change_requests/approvals/approval_message/?entityId=${transactionId}`,
  );
  expect(message.status(), await message.text()).toBe(200);
  const { approvalId } = (await message.json()) as { approvalId: string };
  const decided = await page.request.post(
    `/api/external/change_requests/approvals/${approvalId}/action/`,
    {
      headers: { Origin: new URL(baseURL).origin, 'X-CSRF-Token': session.csrfToken },
      data: { action: 'approve' },
    },
  );
  expect(decided.status(), await decided.text()).toBe(200);
}
