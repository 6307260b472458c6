import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { uniqueName, usAccountNumber } from './bank-account-data.ts';
import { DESKTOP_ONLY } from './widths.ts';
import { expectHydrated } from './keyboard.ts';

/**
 * The sub-organization a bank account belongs to, chosen when it is
 * proposed: an admin of the whole organization picks one on the propose
 * form, and the created account's page names it.
 */

for (const width of DESKTOP_ONLY) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 }, role: 'orgAdmin' });

    test('an admin of the whole organization proposes an account for a sub-organization, and its page shows it', async ({
      page,
      world,
    }) => {
      const name = uniqueName('E2E sub-org');
      await page.goto('/bank-accounts');
      await expectHydrated(page);
      await page.getByRole('link', { name: 'Propose bank account' }).click();
      await expect(page).toHaveURL(/\/bank-accounts\/new/);
      const form = page.getByRole('form', { name: 'Propose a bank account' });
      await form.getByRole('radio', { name: /^US ACH/ }).check();

      // The whole organization may be left; the worker's own sub-organization is chosen.
      const subOrg = form.getByLabel('Sub-organization', { exact: true });
      await expect(subOrg).toBeVisible();
      const subOrgName = world.subOrg.name;
      await subOrg.selectOption({ label: subOrgName });

      for (const [label, value] of Object.entries({
        'Account holder name': name,
        'Account number': usAccountNumber(),
        'ABA routing number': '021000021',
        'Bank name': 'JPMorgan Chase Bank',
      })) {
        const control = form.getByLabel(label, { exact: true });
        await control.fill(value);
        await control.blur();
      }
      await expectNoAxeViolations(page);
      await form.getByRole('button', { name: 'Propose bank account' }).click();

      await expect(page).toHaveURL(/\/bank-accounts\/(?!new)[^/?]+(\?|$)/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
      const details = page.getByRole('region', { name: 'Details' });
      await expect(details).toContainText('Pending');
      const row = details.locator('div').filter({
        has: page.locator('dt', { hasText: /^Sub-organization$/ }),
      });
      await expect(row.locator('dd')).toHaveText(subOrgName);
      await expectNoAxeViolations(page);
    });
  });
}
