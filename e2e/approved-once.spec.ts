import type { Page } from '@playwright/test';
import { cmp } from '../src/contract/decimal.ts';
import { DEFAULT_POLICY, type Policy } from '../src/contract/policies.ts';
import { expectNoAxeViolations } from './axe.ts';
import { expectHydrated } from './keyboard.ts';
import { expect, test } from './policy-turn.ts';
import { approveByApi, memberPage } from './transfers.ts';
import { DESKTOP_ONLY } from './widths.ts';

/**
 * An approver who approved an item a rule holds for two approvals has
 * nothing left to decide on it: its page says when they approved and whom
 * it waits on, and offers no Approve; the inbox says the same on its row and
 * leaves it out of what waits for their decision; a second approval sent
 * anyway is refused. The rule (USDC transfers of $20,000 or more) is in
 * force only while the story creates its transfer, taken in turn with the
 * other policy stories (e2e/policy-turn.ts): it is frozen on the transfer
 * then, and no other story sends that much USDC.
 */

test.use({ role: 'approver' });

const RULE = 'USDC transfers of $20,000 or more';
const policy: Policy = {
  rules: [
    {
      id: 'approved-once',
      name: RULE,
      match: { categories: ['TRANSFER'], assets: ['USDC'], amountUsdAtLeast: '20000' },
      outcome: {
        action: 'ALLOW',
        approvals: 2,
        approvers: { kinds: ['approver', 'admin'], memberIds: [] },
        apiClientMayApproveOwn: false,
      },
    },
  ],
  fallback: DEFAULT_POLICY.fallback,
};

interface Vault {
  id: string;
  wallets?: Array<{ blockchain: string }>;
}

/** A USDC transfer of `amount` between two of the organization's vaults on Ethereum, by `page`'s member. */
async function bigUsdcTransfer(page: Page, baseURL: string, amount: string): Promise<string> {
  const { csrfToken } = (await (await page.request.get('/auth/session')).json()) as {
    csrfToken: string;
  };
  const { results } = (await (
    await page.request.get('/api/external/vaults/?limit=100')
  ).json()) as {
    results: Vault[];
  };
  const onEthereum = results.filter((v) => v.wallets?.some((w) => w.blockchain === 'ETHEREUM'));
  let source: Vault | undefined;
  for (const vault of onEthereum) {
    const balances = (await (
      await page.request.get(`/api/external/vaults/${vault.id}/balances/`)
    ).json()) as Record<string, Record<string, string>>;
    if (cmp(balances.USDC?.ETHEREUM ?? '0', amount) >= 0) {
      source = vault;
      break;
    }
  }
  const destination = onEthereum.find((v) => v.id !== source?.id);
  if (!source || !destination) throw new Error(`no vault holds ${amount} USDC on Ethereum`);
  const response = await page.request.post('/api/external/transactions/', {
    headers: { Origin: new URL(baseURL).origin, 'X-CSRF-Token': csrfToken },
    data: {
      category: 'TRANSFER',
      source: { type: 'VAULT', id: source.id },
      destination: { type: 'VAULT', id: destination.id },
      amount,
      asset: 'USDC',
      blockChain: 'ETHEREUM',
      memo: 'approved once, waiting for one more',
    },
  });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { id: string }).id;
}

const YOU_APPROVED = /^You approved at .+ — waiting on one more of: .+\.$/;

for (const width of DESKTOP_ONLY) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('an approver who approved a 2-of-N transfer is told when, is not offered Approve, and it leaves what waits for their decision', async ({
      page,
      browser,
      baseURL,
      policyTurn,
    }) => {
      // Five members' browsers, a policy published twice, two pages and two axe scans.
      test.slow();
      const base = baseURL ?? '';
      const initiator = await memberPage(browser, 'initiator', base);
      const amount = `20000.${String(Date.now() % 1_000_000).padStart(6, '0')}`;
      // The rule is frozen on the transfer as it is made: the default can come back at once.
      await policyTurn.take(policy);
      const id = await bigUsdcTransfer(initiator, base, amount);
      await policyTurn.end();
      await initiator.context().close();

      // The approver approves on the transaction's page: held at 1 of 2.
      await page.goto(`/transactions/${id}`);
      await expectHydrated(page);
      await page.getByRole('button', { name: 'Approve…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Approve this transaction?' });
      await dialog.getByRole('button', { name: 'Approve transaction' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByTestId('you-approved')).toHaveText(YOU_APPROVED);
      await expect(page.getByRole('button', { name: 'Approve…' })).toHaveCount(0);
      await expectNoAxeViolations(page);

      // The inbox: the row says so, cannot be selected, and is counted apart.
      const { subOrgId } = (await (
        await page.request.get(`/api/external/transactions/${id}/`)
      ).json()) as { subOrgId: string | null };
      // Newest first: it is on the first page, in its sub-organization or the whole inbox.
      const scope = subOrgId ? `subOrgId=${subOrgId}` : '';
      await page.goto(subOrgId ? `/approvals?subOrg=${subOrgId}` : '/approvals');
      await expectHydrated(page);
      const row = page.locator(`[data-approval-id="${id}"]`);
      await expect(row.getByTestId('you-approved')).toHaveText(YOU_APPROVED);
      await expect(row.getByRole('checkbox')).toBeDisabled();
      await expect(row.getByRole('checkbox')).toHaveAccessibleName(
        /^Not selectable, you approved it/,
      );
      const item = (
        (await (await page.request.get(`/api/console/approvals/?limit=100&${scope}`)).json()) as {
          results: Array<{ id: string; youApprovedAt: string | null }>;
        }
      ).results.find((i) => i.id === id);
      expect(item?.youApprovedAt).toBeTruthy();
      // The intro's figures are the server's at that moment (other stories add items meanwhile).
      const intro = page.getByText(/items? waits? for your decision/);
      await expect
        .poll(async () => {
          const counts = (await (
            await page.request.get(`/api/console/approvals/count/?${scope}`)
          ).json()) as { actionableCount: number; youApprovedCount: number };
          const text = (await intro.textContent()) ?? '';
          return (
            counts.youApprovedCount >= 1 &&
            text.startsWith(
              `${counts.actionableCount} ${counts.actionableCount === 1 ? 'item waits' : 'items wait'} for your decision; ${counts.youApprovedCount} you approved`,
            )
          );
        })
        .toBe(true);
      await expectNoAxeViolations(page);

      // A second approval sent anyway is refused, saying why.
      const { csrfToken } = (await (await page.request.get('/auth/session')).json()) as {
        csrfToken: string;
      };
      const message = await page.request.get(
        `/api/external/change_requests/approvals/approval_message/?entityId=${id}`,
      );
      const { approvalId } = (await message.json()) as { approvalId: string };
      const again = await page.request.post(
        `/api/external/change_requests/approvals/${approvalId}/action/`,
        {
          headers: { Origin: new URL(base).origin, 'X-CSRF-Token': csrfToken },
          data: { action: 'approve' },
        },
      );
      expect(again.status()).toBe(409);
      expect(await again.json()).toMatchObject({ code: 'DECISION_ALREADY_RECORDED' });

      // An admin's approval completes it, so it waits on no one after this story.
      const admin = await memberPage(browser, 'admin', base);
      await approveByApi(admin, base, id);
      await admin.context().close();
    });
  });
}
