import { readFile } from 'node:fs/promises';
import { expectNoAxeViolations } from './axe.ts';
import { expect, test } from './auth.ts';
import { approveOnItsPage } from './held-items.ts';
import { expectHydrated } from './keyboard.ts';
import { memberPage } from './transfers.ts';
import { DESKTOP_ONLY } from './widths.ts';

/**
 * A payment run from a file, end to end: an initiator uploads a CSV of three
 * good rows and two bad ones (the worker's own funded vault and approved
 * contact, e2e/worker-world.ts; a header in the file's own words, mapped to
 * its column), fixes the bad ones in place, reads the simulation and
 * submits; another member approves it on its approval page; the initiator
 * watches it paid to the end (the server's executor and the sandbox's
 * lifecycles, at the e2e server's time scale) and downloads the
 * reconciliation file. The run's name, references and amounts carry the
 * worker's tag and the time, so no other story's runs are mistaken for it.
 */

test.use({ role: 'initiator' });

for (const width of DESKTOP_ONLY) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a run of 3 good and 2 bad rows: fixed in place, simulated, approved by another member, paid, reconciled', async ({
      page,
      browser,
      baseURL,
      world,
    }) => {
      // Two members' browsers, five rows paid, four axe scans.
      test.slow();
      const base = baseURL ?? '';
      const stamp = `${world.tag}-${Date.now().toString(36)}`.toUpperCase();
      const name = `Vendors ${stamp}`;
      const ref = (n: number) => `PR-${stamp}-${n}`;
      const amount = (n: number) =>
        `1.${String(n).padStart(2, '0')}${String(Date.now() % 1000).padStart(3, '0')}`;
      const good = (n: number) =>
        `CRYPTO,${world.funded.id},${world.ethereum.id},USDC,ETHEREUM,${amount(n)},${ref(n)}`;
      // "Source vault" is the file's own header: mapped to sourceVaultId on the page.
      const csv = [
        'kind,Source vault,contactId,asset,blockChain,amount,reference',
        good(1),
        good(2),
        good(3),
        `CRYPTO,${world.funded.id},no-such-contact-${stamp},USDC,ETHEREUM,${amount(4)},${ref(4)}`,
        `CRYPTO,${world.funded.id},${world.ethereum.id},USDC,ETHEREUM,1.1234567,${ref(5)}`,
      ].join('\r\n');

      await page.goto('/payment-runs/new');
      await expectHydrated(page);
      await page.getByRole('textbox', { name: 'Name' }).fill(name);
      await page.getByLabel('CSV file', { exact: true }).setInputFiles({
        name: 'vendors.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
      await expect(page.getByRole('combobox', { name: 'Column for “Source vault”' })).toHaveValue(
        'sourceVaultId',
      );
      await expect(page.getByRole('link', { name: 'Download the template (CSV)' })).toBeVisible();
      await expectNoAxeViolations(page);
      await page.getByRole('button', { name: 'Create and check the run' }).click();

      // The run's page: two rows to fix, each error on its row.
      await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
      const runId = new URL(page.url()).pathname.split('/').at(-1) ?? '';
      await expect(page.getByRole('alert').filter({ hasText: 'rows need a fix' })).toHaveText(
        /^2 rows need a fix/,
      );
      const row4 = page.getByRole('row', { name: 'Row 4', exact: true });
      const row5 = page.getByRole('row', { name: 'Row 5', exact: true });
      await expect(row4).toContainText('contactId');
      await expect(row5).toContainText('amount');
      await expectNoAxeViolations(page);

      // Fixed in place: the contact chosen by name, the amount typed again.
      await row4.getByRole('button', { name: 'Fix row 4' }).click();
      const fix4 = page.getByRole('form', { name: 'Fix row 4' });
      await fix4.getByRole('combobox', { name: 'Contact' }).selectOption({
        label: world.ethereum.name,
      });
      await fix4.getByRole('button', { name: 'Save row 4' }).click();
      await expect(fix4).toBeHidden();
      await expect(page.getByRole('alert').filter({ hasText: 'need' })).toHaveText(
        /^1 row needs a fix/,
      );
      await row5.getByRole('button', { name: 'Fix row 5' }).click();
      const fix5 = page.getByRole('form', { name: 'Fix row 5' });
      await expect(fix5.getByRole('textbox', { name: 'Amount' })).toHaveAccessibleDescription(
        /decimal places/,
      );
      await fix5.getByRole('textbox', { name: 'Amount' }).fill(amount(5));
      await fix5.getByRole('button', { name: 'Save row 5' }).click();
      await expect(fix5).toBeHidden();
      await expect(page.getByRole('alert').filter({ hasText: 'need' })).toHaveCount(0);

      // The simulation: the funded vault's USDC before and after, and its ETH, which pays the
      // rows' network fees.
      const simulation = page.getByRole('table', { name: /Simulation/ });
      const vaultLines = simulation.getByRole('row', { name: new RegExp(world.funded.name) });
      await expect(vaultLines.filter({ hasText: 'USDC on ETHEREUM' })).toHaveCount(1);
      await expect(vaultLines.filter({ hasText: 'ETH on ETHEREUM' })).toHaveCount(1);
      await expect(page.getByText(/Network fees \(estimate\)/)).toBeVisible();
      await expectNoAxeViolations(page);

      await page.getByRole('button', { name: 'Submit for approval' }).click();
      const approvalLink = page.getByRole('link', { name: 'Open its approval' });
      await expect(approvalLink).toHaveAttribute('href', `/approvals/held/${runId}`);

      // Another member approves the run, once, on its approval page.
      const approver = await memberPage(browser, 'approver', base);
      await approver.goto(`/approvals/held/${runId}`);
      await expectHydrated(approver);
      await expect(approver.getByText(`${name}: 5 rows`).first()).toBeVisible();
      await expectNoAxeViolations(approver);
      await approveOnItsPage(approver);
      await approver.context().close();

      // Paid to the end, watched live on the run's page.
      const bar = page.getByRole('progressbar', { name: /Rows ended/ });
      await expect(bar).toHaveAttribute('aria-valuenow', '5', { timeout: 90_000 });
      await expect(page.getByText('5 completed · 0 sent · 0 failed · 0 waiting')).toBeVisible();
      await expect(page.locator('h1 + [data-status]')).toHaveAttribute('data-status', 'COMPLETED');
      await expect(
        page
          .getByRole('row', { name: 'Row 1', exact: true })
          .getByRole('link', { name: /transaction/ }),
      ).toBeVisible();
      await expectNoAxeViolations(page);

      // The reconciliation file: every row with its transaction, completed.
      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: /reconciliation file/ }).click();
      const file = await download;
      const path = await file.path();
      const lines = (await readFile(path, 'utf8')).trim().split(/\r?\n/);
      const header = lines[0]?.split(',') ?? [];
      expect(header.slice(0, 8)).toEqual([
        'index',
        'reference',
        'asset',
        'blockChain',
        'amount',
        'status',
        'externalId',
        'transactionId',
      ]);
      const rows = lines.slice(1).map((l) => l.split(','));
      expect(rows.map((r) => [r[0], r[1], r[5]])).toEqual(
        [1, 2, 3, 4, 5].map((n) => [String(n), ref(n), 'COMPLETED']),
      );
      for (const r of rows) expect(r[7]).toBeTruthy();
    });
  });
}
