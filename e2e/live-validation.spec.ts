import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import { choose, countCreates, openForm } from './create-forms.ts';
import { DESKTOP_ONLY } from './widths.ts';

/**
 * A create form checks what is typed as it is typed: an amount over the
 * vault's balance and an amount of the wrong shape are flagged on the field,
 * in a sentence naming it, before Review is pressed.
 */

for (const width of DESKTOP_ONLY) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 900 }, role: 'initiator' });

    test('an amount over the balance is flagged as it is typed, before Review', async ({
      page,
      world,
    }) => {
      const creates = countCreates(page);
      const form = await openForm(page, 'TRANSFER');
      await choose(form.getByLabel('From vault'), world.funded.name);
      await form.getByLabel('Chain', { exact: true }).selectOption('ETHEREUM');
      await choose(form.getByLabel('Asset', { exact: true }), 'ETH');
      const amount = form.getByLabel(/^Amount/);

      await amount.pressSequentially('12,5');
      await expect(amount).toHaveAttribute('aria-invalid', 'true');
      await expect(amount).toHaveAccessibleDescription(/Enter an amount above zero, like 12\.5\./);

      await amount.fill('');
      await amount.pressSequentially('999999999');
      await expect(amount).toHaveAttribute('aria-invalid', 'true');
      await expect(amount).toHaveAccessibleDescription(
        /The amount is more than the vault holds: .*the balance.*\d\.$/,
      );
      // Nothing was pressed but keys: the form is still being edited, nothing sent.
      await expect(form.getByRole('button', { name: 'Review' })).toBeVisible();
      await expectNoAxeViolations(page);

      await amount.fill('0.001');
      await expect(amount).not.toHaveAttribute('aria-invalid', 'true');
      expect(creates()).toBe(0);
    });
  });
}
