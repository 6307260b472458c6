import type { Page } from '@playwright/test';
import { expect } from './auth.ts';
import { expectHydrated } from './keyboard.ts';

/**
 * Approves the item of a kind the console holds (a staff change, a policy
 * publish) on its own page, `/approvals/held/$entityId`, already open: the one
 * way such an item is decided, signed over its card where the member holds a
 * passkey.
 */
export async function approveOnItsPage(
  page: Page,
  options: { dblclick?: boolean } = {},
): Promise<void> {
  await expectHydrated(page);
  await page.getByRole('button', { name: 'Approve…' }).click();
  const dialog = page.getByRole('dialog', { name: /^Approve / });
  const confirm = dialog.getByRole('button', { name: 'Approve', exact: true });
  await expect(confirm).toBeEnabled();
  if (options.dblclick) await confirm.dblclick();
  else await confirm.click();
  await expect(page.getByRole('status').filter({ hasText: 'the decision is recorded' })).toHaveText(
    'Approved: the decision is recorded.',
  );
}
