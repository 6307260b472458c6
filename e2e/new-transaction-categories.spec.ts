import type { Locator, Page } from '@playwright/test';
import { expect, test, type WorkerWorld } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import {
  choose,
  countCreates,
  expectOneTransactionPage,
  loseFirstCreateAnswer,
  openForm,
  switchKind,
} from './create-forms.ts';

/**
 * Contract calls, stakes and resource delegations get what transfers get
 * (e2e/new-transaction.spec.ts): each bad field named with its rule and
 * nothing sent, the chosen fee tier on the created transaction, one
 * transaction for a double click or a lost answer, the form done with the
 * keyboard alone, and no axe violation on the form, its review or its errors.
 */

type Category = 'CONTRACT_CALL' | 'STAKE' | 'DELEGATE_RESOURCE';

const FORM_NAME: Record<Category, string> = {
  CONTRACT_CALL: 'Contract call',
  STAKE: 'Stake',
  DELEGATE_RESOURCE: 'Resource delegation',
};

/** A valid form of each kind, filled with the pointer, spending from the worker's funded vault. */
const FILL: Record<Category, (form: Locator, world: WorkerWorld) => Promise<void>> = {
  CONTRACT_CALL: async (form, world) => {
    await choose(form.getByLabel('Vault', { exact: true }), world.funded.name);
    await form.getByLabel('Chain', { exact: true }).selectOption('ETHEREUM');
    await form.getByLabel('Call data (hex)').fill('0xa9059cbb');
  },
  STAKE: async (form, world) => {
    await choose(form.getByLabel('Vault', { exact: true }), world.funded.name);
    await form.getByLabel('Chain', { exact: true }).selectOption('TRON');
    await form.getByLabel(/^Amount/).fill('2');
  },
  DELEGATE_RESOURCE: async (form, world) => {
    await choose(form.getByLabel('Vault', { exact: true }), world.funded.name);
    await form.getByLabel('Resource', { exact: true }).selectOption('TRON_BANDWIDTH');
    await choose(form.getByLabel('Contact', { exact: true }), world.tron.name);
    await form.getByLabel(/^Amount/).fill('10');
  },
};

/** The control is marked invalid and its description (hint and error) states the rule. */
async function expectRule(control: Locator, rule: string | RegExp) {
  await expect(control).toHaveAttribute('aria-invalid', 'true');
  await expect(control).toHaveAccessibleDescription(
    typeof rule === 'string' ? new RegExp(escape(rule)) : rule,
  );
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Presses Tab until `target` has focus: the way a keyboard user reaches it. */
async function tabTo(page: Page, target: Locator, most = 80) {
  for (let i = 0; i < most; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

/** Picks a native select's option by typing the start of its label, as a keyboard user does. */
async function typeToChoose(page: Page, select: Locator, prefix: string, value: RegExp | string) {
  await expect(select).toBeFocused();
  await page.keyboard.type(prefix);
  await expect(select).toHaveValue(value);
}

test.describe('New transaction: invalid input per field', () => {
  // One page for the three kinds, moved between with the page's own "Kind of transaction"
  // links, as a member does: each kind's form starts empty, and each is a step of its own.
  test('stake, delegate resource and contract call: each bad field shows its rule, the errors pass axe, and nothing is sent', async ({
    page,
    world,
  }) => {
    test.slow();
    const creates = countCreates(page);
    let form = await openForm(page, 'STAKE');
    await test.step('stake', async () => {
      await expectNoAxeViolations(page);
      await form.getByRole('button', { name: 'Review' }).click();
      await expectRule(form.getByLabel('Vault', { exact: true }), 'Choose the vault.');
      await expectRule(form.getByLabel('Chain', { exact: true }), 'Choose a chain.');

      await FILL.STAKE(form, world);
      await form.getByLabel(/^Amount/).fill('1.1234567');
      await form.getByLabel('Memo (optional)').fill('m'.repeat(501));
      await form.getByLabel('External ID').fill('');
      await form.getByRole('button', { name: 'Review' }).click();
      await expectRule(
        form.getByLabel(/^Amount/),
        'The amount may have at most 6 decimal places for this asset.',
      );
      // The rule in the form's words (the field is named by its label), and the count toward it.
      await expectRule(
        form.getByLabel('Memo (optional)'),
        /^The memo must be at most 500 characters\./,
      );
      await expectRule(form.getByLabel('Memo (optional)'), /501 of 500 characters: 1 too many/);
      await expectRule(form.getByLabel('External ID'), /Keep an external ID/);
      await expectNoAxeViolations(page);

      await form.getByLabel(/^Amount/).fill('999999999999');
      await expectRule(form.getByLabel(/^Amount/), /The amount is more than the vault holds/);
      await expect(form.getByLabel('Memo (optional)')).toHaveValue('m'.repeat(501));
    });

    form = await switchKind(page, 'DELEGATE_RESOURCE');
    await test.step('delegate resource', async () => {
      await expectNoAxeViolations(page);
      await form.getByRole('button', { name: 'Review' }).click();
      await expectRule(form.getByLabel('Vault', { exact: true }), 'Choose the vault.');
      await expectRule(form.getByLabel('Resource', { exact: true }), 'Choose bandwidth or energy.');
      await expectRule(form.getByLabel('Contact', { exact: true }), 'Choose an approved contact.');
      await expectRule(form.getByLabel(/^Amount/), /enter an amount above zero/i);
      await expectNoAxeViolations(page);

      await choose(form.getByLabel('Vault', { exact: true }), world.funded.name);
      await form.getByRole('radio', { name: 'Another vault' }).check();
      await choose(form.getByLabel('Destination vault'), world.empty.name);
      await form.getByLabel(/^Amount/).fill('0.0000001');
      await form.getByLabel('External ID').fill('x'.repeat(129));
      await expectRule(
        form.getByLabel(/^Amount/),
        'The amount may have at most 6 decimal places for this asset.',
      );
      await expectRule(
        form.getByLabel('External ID'),
        /\. The external ID must be at most 128 characters\.$/,
      );

      await form.getByRole('radio', { name: 'External address' }).check();
      await form.getByLabel('Destination address').fill('0x1234');
      await form.getByRole('button', { name: 'Review' }).click();
      await expectRule(form.getByLabel('Destination address'), /Not a Tron address/);
      await expectNoAxeViolations(page);
    });

    form = await switchKind(page, 'CONTRACT_CALL');
    await test.step('contract call', async () => {
      await expectNoAxeViolations(page);
      await form.getByRole('button', { name: 'Review' }).click();
      await expectRule(
        form.getByLabel('Vault', { exact: true }),
        'Choose the vault that makes the call.',
      );
      await expectRule(form.getByLabel('Chain', { exact: true }), 'Choose a chain.');

      await choose(form.getByLabel('Vault', { exact: true }), world.funded.name);
      await form.getByLabel('Chain', { exact: true }).selectOption('ETHEREUM');
      await form.getByRole('button', { name: 'Review' }).click();
      await expectRule(form.getByLabel('Call data (hex)'), 'Enter the call data.');
      await form.getByLabel('Call data (hex)').fill('0xa9059cbb');
      await form.getByLabel('Contract address (optional)').fill('0xnot-an-address');
      await form.getByLabel(/^Amount sent with the call/).fill('0.0000000000000000001');
      await form.getByLabel('External ID').fill('');
      await expectRule(form.getByLabel('Contract address (optional)'), /Not an Ethereum address/);
      await expectRule(
        form.getByLabel(/^Amount sent with the call/),
        'The amount may have at most 18 decimal places for this asset.',
      );
      await expectRule(form.getByLabel('External ID'), /Keep an external ID/);
      await expectNoAxeViolations(page);

      // The Internet Computer takes a canister call instead of call data.
      await form.getByLabel('Chain', { exact: true }).selectOption('ICP');
      await form.getByRole('button', { name: 'Review' }).click();
      await expectRule(form.getByLabel('Canister ID'), 'Enter the canister id.');
      await expectRule(form.getByLabel('Method'), 'Enter the method.');
    });
    expect(creates()).toBe(0);
  });
});

for (const category of ['CONTRACT_CALL', 'STAKE', 'DELEGATE_RESOURCE'] as const) {
  const name = FORM_NAME[category];
  test.describe(`New transaction: ${name.toLowerCase()} sent once`, () => {
    test('the chosen fee tier reaches the review and the transaction; a double click creates one, and so does a send whose answer is lost', async ({
      page,
      world,
    }) => {
      // More than one story's steps: the tripled budget, for a loaded machine.
      test.slow();
      const creates = countCreates(page);
      const form = await openForm(page, category);
      await FILL[category](form, world);
      // Every tier is priced on the form's own estimate; the choice changes what the review quotes.
      await expect(form.getByTestId('fee-LOW')).toBeVisible();
      // Forms open on the middle tier, not the most expensive one.
      await expect(form.getByRole('radio', { name: /^Medium/ })).toBeChecked();
      await form.getByRole('radio', { name: /^Low/ }).check();
      const lowFee = ((await form.getByTestId('fee-LOW').textContent()) ?? '').replace(/^: /, '');
      await form.getByRole('radio', { name: /^Medium/ }).check();
      const mediumFee = ((await form.getByTestId('fee-MEDIUM').textContent()) ?? '').replace(
        /^: /,
        '',
      );
      await expect(form.getByRole('radio', { name: /^Medium/ })).toBeChecked();
      await expectNoAxeViolations(page);
      const externalId = await form.getByLabel('External ID').inputValue();
      await form.getByRole('button', { name: 'Review' }).click();

      const review = page.getByRole('region', { name: new RegExp(`Review the ${name}`, 'i') });
      await expect(review.getByText(`Medium: ${mediumFee}`, { exact: false })).toBeVisible();
      if (lowFee !== mediumFee) await expect(review.getByText(`Low: ${lowFee}`)).toHaveCount(0);
      await expectNoAxeViolations(page);
      await review.getByRole('button', { name: 'Send transaction' }).dblclick();
      const created = await expectOneTransactionPage(page, externalId);
      expect(creates()).toBe(1);
      const detail = await page.request.get(`/api/external/transactions/${String(created.id)}/`);
      expect(((await detail.json()) as { gasParams?: { feeTier?: string } }).gasParams).toEqual({
        feeTier: 'MEDIUM',
      });

      // The same page again, for a send whose answer never arrives.
      await test.step('a send whose answer is lost ends with one transaction and its page', async () => {
        const dropped = await loseFirstCreateAnswer(page);
        const again = await openForm(page, category);
        await FILL[category](again, world);
        const lostId = await again.getByLabel('External ID').inputValue();
        await again.getByRole('button', { name: 'Review' }).click();
        await page.getByRole('button', { name: 'Send transaction' }).click();
        await expectOneTransactionPage(page, lostId);
        expect(dropped()).toBe(true);
      });
    });
  });
}

// The member sees only its worker's vaults and contacts: the start of a name picks one.
test.describe('New transaction: the keyboard alone', () => {
  // One browser page for the three kinds, each form opened at its address and sent with the keyboard alone.
  test('transfer, stake and contract call, each completed with the keyboard alone', async ({
    page,
    world,
  }) => {
    test.slow();
    await test.step('transfer', async () => {
      const form = await openForm(page, 'TRANSFER');
      const externalId = await form.getByLabel('External ID').inputValue();
      await tabTo(page, form.getByLabel('From vault'));
      await typeToChoose(page, form.getByLabel('From vault'), 'Fund', world.funded.id);
      await page.keyboard.press('Tab');
      await typeToChoose(page, form.getByLabel('Chain', { exact: true }), 'Eth', 'ETHEREUM');
      await page.keyboard.press('Tab');
      await typeToChoose(page, form.getByLabel('Asset', { exact: true }), 'ETH', 'ETH');
      // The destination kind keeps "Approved contact"; Tab passes the radio group.
      await tabTo(page, form.getByLabel('Contact', { exact: true }));
      await typeToChoose(
        page,
        form.getByLabel('Contact', { exact: true }),
        'Ether',
        world.ethereum.id,
      );
      await page.keyboard.press('Tab');
      await expect(form.getByLabel(/^Amount/)).toBeFocused();
      await page.keyboard.type('0.01');
      await tabTo(page, form.getByRole('radio', { name: /^Medium/ }));
      await page.keyboard.press('ArrowDown');
      await expect(form.getByRole('radio', { name: /^Low/ })).toBeChecked();
      await tabTo(page, form.getByRole('button', { name: 'Review' }));
      await page.keyboard.press('Enter');
      const review = page.getByRole('region', { name: /Review the transfer/ });
      await tabTo(page, review.getByRole('button', { name: 'Send transaction' }));
      await page.keyboard.press('Enter');
      await expectOneTransactionPage(page, externalId);
    });
    await test.step('stake', async () => {
      const form = await openForm(page, 'STAKE');
      const externalId = await form.getByLabel('External ID').inputValue();
      await tabTo(page, form.getByLabel('Vault', { exact: true }));
      await typeToChoose(page, form.getByLabel('Vault', { exact: true }), 'Fund', world.funded.id);
      await page.keyboard.press('Tab');
      await typeToChoose(page, form.getByLabel('Chain', { exact: true }), 'Tro', 'TRON');
      await page.keyboard.press('Tab');
      await typeToChoose(page, form.getByLabel('Resource (optional)'), 'Ene', 'TRON_ENERGY');
      await page.keyboard.press('Tab');
      await expect(form.getByLabel(/^Amount/)).toBeFocused();
      await page.keyboard.type('3');
      await tabTo(page, form.getByLabel('Memo (optional)'));
      await page.keyboard.type('keyboard stake');
      await tabTo(page, form.getByRole('button', { name: 'Review' }));
      await page.keyboard.press('Enter');
      const review = page.getByRole('region', { name: /Review the stake/ });
      await expect(review.getByText('keyboard stake')).toBeVisible();
      await tabTo(page, review.getByRole('button', { name: 'Send transaction' }));
      await page.keyboard.press('Enter');
      await expectOneTransactionPage(page, externalId);
    });
    await test.step('contract call', async () => {
      const form = await openForm(page, 'CONTRACT_CALL');
      const externalId = await form.getByLabel('External ID').inputValue();
      await tabTo(page, form.getByLabel('Vault', { exact: true }));
      await typeToChoose(page, form.getByLabel('Vault', { exact: true }), 'Fund', world.funded.id);
      await page.keyboard.press('Tab');
      await typeToChoose(page, form.getByLabel('Chain', { exact: true }), 'Eth', 'ETHEREUM');
      await page.keyboard.press('Tab');
      await expect(form.getByLabel('Call data (hex)')).toBeFocused();
      await page.keyboard.type('0xa9059cbb');
      await tabTo(page, form.getByRole('button', { name: 'Review' }));
      await page.keyboard.press('Enter');
      const review = page.getByRole('region', { name: /Review the contract call/ });
      await tabTo(page, review.getByRole('button', { name: 'Send transaction' }));
      await page.keyboard.press('Enter');
      await expectOneTransactionPage(page, externalId);
    });
  });
});
