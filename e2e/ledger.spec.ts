import { readFile } from 'node:fs/promises';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { csrf } from './create-forms.ts';
import { expectHydrated, focusLive } from './keyboard.ts';
import { approveByApi, memberPage } from './transfers.ts';

/**
 * The ledger against the real server: a vault's balance history (the
 * worker's funded vault, e2e/worker-world.ts, whose deposits are its
 * movements) over 30 and 90 days, each chart with its table; its statement
 * for last month and this one, reconciled; the whole statement as CSV.
 */

test.describe('Ledger', () => {
  test('a vault’s history switches 30 → 90 days; its statement for last month opens, reconciles, and downloads as CSV', async ({
    page,
    world,
  }) => {
    // Two pages, two axe scans each and a download, on a loaded machine.
    test.setTimeout(120_000);
    const { id, name } = world.funded;
    await page.goto('/');
    await expectHydrated(page);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Ledger' })
      .click();
    await expect(page.getByRole('heading', { name: 'Ledger', level: 1 })).toBeVisible();

    // Choose the vault by keyboard in the picker.
    const picker = page.getByLabel('Ledger of');
    await focusLive(picker);
    await picker.selectOption({ label: name });
    await expect(page).toHaveURL(new RegExp(`/ledger\\?.*vault=${id}`));
    const history = page.getByTestId('ledger-history');
    await expect(history).toHaveAttribute('data-days', '30');
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    // The chart is drawn (a canvas), and its figures are a table anyone can read.
    await expect(page.getByTestId('ledger-holdings-chart').locator('canvas')).toBeVisible();
    await page.getByText('Holdings in USD, by asset: the figures as a table').click();
    const holdings = page.getByRole('table', { name: /Closing value in USD of each asset/ });
    await expect(holdings.getByRole('columnheader', { name: 'ETH (USD)' })).toBeVisible();
    await expect(holdings.locator('tbody tr')).toHaveCount(30);
    await expect(holdings.locator('tbody tr').first().locator('td').last()).toHaveText(
      /^[\d,]+\.\d{2}$/,
    );
    await expectNoAxeViolations(page);

    await page
      .getByRole('navigation', { name: 'Period' })
      .getByRole('link', { name: '90 days' })
      .click();
    await expect(page).toHaveURL(/days=90/);
    await expect(history).toHaveAttribute('data-days', '90');
    await expect(holdings.locator('tbody tr')).toHaveCount(90);
    await expect(
      page.getByRole('navigation', { name: 'Period' }).getByRole('link', { name: '90 days' }),
    ).toHaveAttribute('aria-current', 'page');
    await page
      .getByRole('navigation', { name: 'Period' })
      .getByRole('link', { name: '30 days' })
      .click();
    await expect(history).toHaveAttribute('data-days', '30');

    // Its statement: this month first (the default), where its deposits are.
    await page.getByRole('link', { name: 'Statement', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Statement', level: 1 })).toBeVisible();
    await expect(page.getByLabel('Ledger of')).toHaveValue(`vault:${id}`);
    const eth = page.getByTestId('statement-totals-ETH-ETHEREUM');
    await expect(eth).toContainText('Checked: opening + movements − fees = closing');
    await expect(page.getByRole('table', { name: /Every movement in the period/ })).toBeVisible();
    await expectNoAxeViolations(page);

    // Last month, in the member's zone.
    const month = page.getByLabel('Month');
    const lastMonth = (await month.locator('option').nth(1).textContent()) ?? '';
    await month.selectOption({ index: 1 });
    await expect(page).toHaveURL(/month=\d{4}-\d{2}/);
    await expect(page.getByTestId('statement-period')).toContainText(`Period: ${lastMonth}`);
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await expect(page.getByTestId('ledger-statement')).toBeVisible();

    // The whole statement as CSV: every asset from its opening to its closing line.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^statement-${id}-.*\\.csv$`));
    const text = await readFile((await file.path()) ?? '', 'utf8');
    expect(text.split('\r\n')[0]).toBe(
      'time,timeZone,asset,chain,kind,counterparty,amount,fee,usdPrice,usdValue,balance,reference,memo,transactionId,vaultId,valueTime',
    );
  });
});

test.describe('Staking rewards in the ledger', () => {
  test('a reward is its own movement on a vault’s statement and in the rewards chart’s table', async ({
    page,
    browser,
    baseURL,
    world,
  }) => {
    // A stake through its lifecycle (sped up), two pages and their axe scans.
    test.setTimeout(120_000);
    const base = baseURL ?? '';
    const origin = new URL(base).origin;
    const { id: vaultId } = world.funded;

    // The worker's own vault stakes TRX: sent by its initiator, approved by its admin.
    const initiator = await memberPage(browser, 'initiator', base);
    const sent = await initiator.request.post('/api/external/transactions/', {
      headers: { Origin: origin, 'X-CSRF-Token': await csrf(initiator) },
      data: {
        category: 'STAKE',
        source: { type: 'VAULT', id: vaultId },
        amount: '100000',
        asset: 'TRX',
        blockChain: 'TRON',
        resourceType: 'TRON_ENERGY',
        externalId: `ledger-stake-${world.tag}-${Date.now()}`,
      },
    });
    expect(sent.status(), await sent.text()).toBe(200);
    const { id: stakeId } = (await sent.json()) as { id: string };
    await initiator.context().close();
    await approveByApi(page, base, stakeId);
    await expect
      .poll(
        async () =>
          (
            (await (await page.request.get(`/api/external/transactions/${stakeId}/`)).json()) as {
              status?: string;
            }
          ).status,
        { timeout: 60_000 },
      )
      .toBe('COMPLETED');

    // The sandbox's clock for this stake: one daily epoch ends behind it, paid as the simulator
    // pays it, at today's 00:00 UTC. Not two: on a month's first day the older would be dated in
    // last month, which another worker's story may be closing, and its card would change under
    // the approval.
    const passed = await page.request.post(
      `/api/console/sandbox/vaults/${vaultId}/staking-epochs/`,
      {
        headers: { Origin: origin, 'X-CSRF-Token': await csrf(page) },
        data: { chain: 'TRON', epochs: 1 },
      },
    );
    expect(passed.status(), await passed.text()).toBe(200);
    const { rewards } = (await passed.json()) as { rewards: Array<{ at: string; amount: string }> };
    expect(rewards).toHaveLength(1);
    const today = rewards[0]?.at.slice(0, 10) ?? '';

    // The history: the rewards chart's table has today's reward, in USD.
    await page.goto(`/ledger?vault=${vaultId}&days=7`);
    await expectHydrated(page);
    await expect(page.getByLabel('Ledger of')).toHaveValue(`vault:${vaultId}`);
    await expect(page.getByTestId('ledger-history')).toHaveAttribute('data-days', '7');
    await expect(page.getByText(/^Rewards on \d+ days? of this period/)).toBeVisible();
    const summary = page.getByText('Staking rewards per day, in USD: the figures as a table');
    await focusLive(summary);
    await page.keyboard.press('Enter');
    const table = page.getByRole('table', { name: /Staking rewards in USD each UTC day/ });
    const row = table.getByRole('row').filter({ hasText: today });
    await expect(row.getByRole('cell').last()).toHaveText(
      /^\$?[1-9][\d,]*\.\d{2}$|^\$?0\.(0[1-9]|[1-9]\d)$/,
    );
    await expectNoAxeViolations(page);

    // The statement of the days around the reward: the reward a line of its own.
    const day = (at: string) => at.slice(0, 10);
    const from = new Date(Date.parse(rewards[0]?.at ?? '') - 86_400_000).toISOString();
    await page.goto(
      `/ledger/statement?vault=${vaultId}&from=${day(from)}&to=${day(new Date().toISOString())}`,
    );
    await expectHydrated(page);
    await expect(page.getByRole('heading', { name: 'Statement', level: 1 })).toBeVisible();
    await expect(page.getByTestId('ledger-statement')).toBeVisible();
    const lines = page.getByRole('table', { name: /Every movement in the period/ });
    // Its kind names it (the memo says "staking reward" too: the kind's cell alone is matched),
    // in TRX: the worker's vault may also hold the periods story's SOL stake and its rewards.
    const rewardLines = lines
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'Staking reward', exact: true }) })
      .filter({ hasText: 'TRX' });
    await expect(rewardLines).toHaveCount(1);
    for (const [i, reward] of rewards.entries()) {
      await expect(rewardLines.nth(i)).toContainText('TRX');
      await expect(rewardLines.nth(i)).toContainText(reward.amount);
    }
    await expect(page.getByTestId('statement-totals-TRX-TRON')).toContainText(
      'Checked: opening + movements − fees = closing',
    );
    await expectNoAxeViolations(page);
  });
});
