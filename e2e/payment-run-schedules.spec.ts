import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.ts';
import { expect, test } from './auth.ts';
import { approveOnItsPage } from './held-items.ts';
import { expectHydrated } from './keyboard.ts';
import { memberPage } from './transfers.ts';
import { DESKTOP_ONLY } from './widths.ts';

/**
 * A payment run scheduled, end to end: an initiator makes a checked run of
 * the worker's own funded vault and approved contact (e2e/worker-world.ts),
 * chooses Repeat monthly on today's date at a time some seconds ahead (in
 * the zone the page names), sees the next occurrences and schedules it. The
 * server's scheduler makes the first occurrence when it falls due, a new run
 * put in the inbox; another member approves it; it is paid. The schedule is
 * then cancelled, after a confirmation, and its list says so. Names and
 * references carry the worker's tag and the time.
 */

test.use({ role: 'initiator' });

/** `instant` as the zone's wall clock: the date (YYYY-MM-DD) and the time (HH:MM:SS). */
function wallClock(instant: Date, timeZone: string): { date: string; time: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}:${parts.second}`,
  };
}

async function pageZone(page: Page): Promise<string> {
  const hint = await page
    .getByText(/^Your time \(/)
    .first()
    .textContent();
  return /^Your time \((.+)\)\.$/.exec(hint ?? '')?.[1] ?? 'UTC';
}

for (const width of DESKTOP_ONLY) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 } });

    test('a run repeated monthly: its first occurrence made when due, approved by another member, paid; the schedule cancelled', async ({
      page,
      browser,
      baseURL,
      world,
    }) => {
      // Two members' browsers, a wait for the occurrence's time, a payment's lifecycle.
      test.slow();
      const base = baseURL ?? '';
      const stamp = `${world.tag}-${Date.now().toString(36)}`.toUpperCase();
      const name = `Retainer ${stamp}`;
      const csv = [
        'kind,sourceVaultId,contactId,asset,blockChain,amount,reference',
        `CRYPTO,${world.funded.id},${world.ethereum.id},USDC,ETHEREUM,1.${String(Date.now() % 1000).padStart(3, '0')},SCH-${stamp}`,
      ].join('\r\n');

      await page.goto('/payment-runs/new');
      await expectHydrated(page);
      await page.getByRole('textbox', { name: 'Name' }).fill(name);
      await page.getByLabel('CSV file', { exact: true }).setInputFiles({
        name: 'retainer.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
      await page.getByRole('button', { name: 'Create and check the run' }).click();
      await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Submit for approval' })).toBeVisible();

      // Repeat monthly, today, some seconds from now, in the page's zone.
      await page.getByRole('radio', { name: 'Repeat monthly' }).check();
      await expect(page.getByRole('button', { name: 'Submit for approval' })).toBeHidden();
      const zone = await pageZone(page);
      const due = wallClock(new Date(Date.now() + 20_000), zone);
      await page.getByRole('textbox', { name: 'Day of the month' }).fill(due.date.slice(8));
      await page.getByLabel('Time', { exact: true }).fill(due.time);
      const next = page.getByRole('region', { name: 'Next occurrences' });
      await expect(next.getByRole('listitem')).toHaveCount(3);
      await expectNoAxeViolations(page);
      await page.getByRole('button', { name: 'Schedule the run' }).click();

      // The schedules list: the schedule, active, then its first run once it falls due.
      await expect(page).toHaveURL(/\/payment-runs\/schedules$/);
      const row = page.getByRole('row', { name });
      await expect(row.locator('[data-status="ACTIVE"]')).toBeVisible();
      await expectNoAxeViolations(page);
      // Made, then checked and put in the inbox by the scheduler's pass: read again until then.
      const lastRun = row.getByRole('link', { name: /^Run due/ });
      await expect(async () => {
        await page.reload();
        await expect(lastRun).toBeVisible({ timeout: 2_000 });
        await expect(row.locator('[data-status="PENDING_APPROVAL"]')).toBeVisible({
          timeout: 2_000,
        });
      }).toPass({ timeout: 90_000 });
      const runId = (await lastRun.getAttribute('href'))?.split('/').at(-1) ?? '';
      expect(runId).not.toBe('');

      // Another member approves the occurrence on its approval page, as any run.
      const approver = await memberPage(browser, 'approver', base);
      await approver.goto(`/approvals/held/${runId}`);
      await expectHydrated(approver);
      await expectNoAxeViolations(approver);
      await approveOnItsPage(approver);
      await approver.context().close();

      // Paid, watched on the run's page.
      await lastRun.click();
      await expect(page.getByRole('heading', { level: 1 })).toContainText(name);
      await expect(page.locator('h1 + [data-status]')).toHaveAttribute('data-status', 'COMPLETED', {
        timeout: 90_000,
      });

      // Cancelled, once confirmed: no further run; the paid one stays.
      await page.goto('/payment-runs/schedules');
      await expectHydrated(page);
      await row.getByRole('button', { name: /^Cancel/ }).click();
      const dialog = page.getByRole('dialog', { name: /Cancel the schedule/ });
      await expect(dialog).toContainText('Runs it already made are not touched');
      await expectNoAxeViolations(page);
      await dialog.getByRole('button', { name: 'Cancel the schedule' }).click();
      await expect(dialog).toBeHidden();
      await expect(row.locator('[data-status="CANCELLED"]')).toBeVisible();
      await expect(row.locator('[data-status="COMPLETED"]')).toBeVisible();
    });
  });
}
