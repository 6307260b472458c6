import type { Locator, Page } from '@playwright/test';
import { expect, test } from './auth.ts';
import { expectNoAxeViolations } from './axe.ts';
import {
  freshDigits,
  freshIban,
  groupedIban,
  proposeByApi,
  uniqueName,
  usAccountNumber,
} from './bank-account-data.ts';
import { expectHydrated, tabTo } from './keyboard.ts';

/**
 * Proposing a bank account through `/bank-accounts/new`, as an initiator:
 * one account per rail, each rule of the contract's rail schema refused
 * with the field's own message before anything is sent, and the whole
 * flow with the keyboard alone.
 */
test.use({ role: 'initiator' });

const CREATE_PATH = '/api/external/bank_accounts/';

/** Counts the create requests the page sends: invalid input must send none. */
function countCreates(page: Page): () => number {
  let creates = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === CREATE_PATH)
      creates += 1;
  });
  return () => creates;
}

type Fill = Record<string, string>;

interface RailCase {
  rail: string;
  /** The radio's visible name. */
  label: RegExp;
  fields: Fill;
  /** The full account number as the server stores it (an IBAN without spaces). */
  stored: string;
  routingNumber?: string;
  /** Filled in by the page itself (US rails, or the IBAN's country). */
  country: string;
}

const RAILS: RailCase[] = [
  (() => {
    const number = usAccountNumber();
    return {
      rail: 'US_ACH',
      label: /^US ACH/,
      fields: {
        'Account number': number,
        'ABA routing number': '021000021',
        'Bank name': 'JPMorgan Chase Bank',
      },
      stored: number,
      routingNumber: '021000021',
      country: 'US',
    };
  })(),
  (() => {
    const number = usAccountNumber();
    return {
      rail: 'US_WIRE',
      label: /^US wire/,
      fields: {
        'Account number': number,
        'ABA routing number': '026009593',
        'Bank name': 'Bank of America',
        'Street address': '100 N Tryon St',
        City: 'Charlotte',
        State: 'NC',
        'ZIP code': '28255-0001',
      },
      stored: number,
      routingNumber: '026009593',
      country: 'US',
    };
  })(),
  (() => {
    // Malta's 31 characters: a bank, fresh account digits, and the rest of the example.
    const iban = freshIban('MT', 'MALT01100', 7, 'MTLCAST001S');
    return {
      rail: 'SEPA',
      label: /^SEPA/,
      // Typed with spaces, as printed on a statement: 38 characters for Malta's 31.
      fields: { IBAN: groupedIban(iban), 'Bank name': 'Bank of Valletta' },
      stored: iban,
      country: 'MT',
    };
  })(),
  (() => {
    // Not the seeded NatWest account's IBAN: proposing that one again is warned about.
    const iban = freshIban('GB', 'WEST123456', 8);
    return {
      rail: 'SWIFT',
      label: /^SWIFT/,
      fields: {
        Country: 'GB',
        'Account number or IBAN': iban,
        'BIC (SWIFT code)': 'NWBKGB2L',
        'Bank name': 'NatWest',
        'Street address': '250 Bishopsgate',
        City: 'London',
        'Postal code': 'EC2M 4AA',
      },
      stored: iban,
      routingNumber: 'NWBKGB2L',
      country: 'GB',
    };
  })(),
  (() => {
    const number = freshDigits(10);
    return {
      rail: 'BANK_TRANSFER',
      label: /^Bank transfer/,
      fields: { 'Account number': number, 'Bank name': 'MUFG Bank', Country: 'JP' },
      stored: number,
      country: 'JP',
    };
  })(),
];

/** The proposal form at its own address, once the app has taken the page over. */
async function openForm(page: Page): Promise<Locator> {
  await page.goto('/bank-accounts/new');
  // What the server rendered takes input only once the app has taken it over.
  await expectHydrated(page);
  return page.getByRole('form', { name: 'Propose a bank account' });
}

/** The proposal form from the list's link, the way a member comes to it (the list is open). */
async function openFormFromList(page: Page): Promise<Locator> {
  // A click before hydration would be a cold load of the form, not the app's navigation.
  await expectHydrated(page);
  await page.getByRole('link', { name: 'Propose bank account' }).click();
  await expect(page).toHaveURL(/\/bank-accounts\/new/);
  return page.getByRole('form', { name: 'Propose a bank account' });
}

async function fill(form: Locator, fields: Fill): Promise<void> {
  for (const [label, value] of Object.entries(fields)) {
    const control = form.getByLabel(label, { exact: true });
    if (label === 'State') await control.selectOption(value);
    else {
      await control.fill(value);
      await control.blur();
    }
  }
}

const last4 = (value: string) => value.slice(-4);

// One page for all five rails, as a member proposing several accounts in a row: from the
// list to the form, the new account's page, then the list filtered to its rail, whose link
// opens the next form. Each rail is a step of its own in the report.
test('each rail: exactly its fields, then a Pending account with masked numbers', async ({
  members,
  page,
}) => {
  test.slow();
  const creates = countCreates(page);
  await page.goto('/bank-accounts');
  for (const [n, rail] of RAILS.entries()) {
    await test.step(rail.rail, async () => {
      const name = uniqueName(`E2E ${rail.rail}`);
      const form = await openFormFromList(page);
      await form.getByRole('radio', { name: rail.label }).check();
      await fill(form, { 'Account holder name': name, ...rail.fields });
      const number = form.getByLabel(/^(Account number|IBAN)/);
      if (rail.rail === 'SEPA') {
        // Shown grouped as typed back, and the IBAN's country filled in.
        await expect(number).toHaveValue(groupedIban(rail.stored));
      }
      await expect(form.getByLabel('Country', { exact: true })).toHaveValue(rail.country);
      // The tab's draft keeps what was typed, except the numbers.
      const draft = () =>
        page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }));
      await expect.poll(draft).toContain(name);
      const compact = (await draft()).replace(/\s/g, '');
      expect(compact).not.toContain(rail.stored);
      if (rail.routingNumber) expect(compact).not.toContain(rail.routingNumber);
      await form.getByRole('button', { name: 'Propose bank account' }).click();

      await expect(page).toHaveURL(/\/bank-accounts\/(?!new)[^/?]+(\?|$)/);
      expect(creates()).toBe(n + 1);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
      const id = /\/bank-accounts\/([^/?]+)/.exec(page.url())?.[1] ?? '';
      const details = page.getByRole('region', { name: 'Details' });
      await expect(details).toContainText('Pending');
      await expect(details).toContainText(`•••• ${last4(rail.stored)}`);
      if (rail.routingNumber)
        await expect(details).toContainText(`•••• ${last4(rail.routingNumber)}`);
      await expect(details).toContainText(members.initiator.name);
      await expect(page.getByRole('region', { name: 'History' })).toContainText(
        'Waiting for another member to approve or decline.',
      );

      // In the list, Pending and masked; the full numbers nowhere on the page.
      await page.goto(`/bank-accounts?status=PENDING&paymentMethod=${rail.rail}`);
      const row = page.locator(`tr[data-bank-account-id="${id}"]`);
      await expect(row).toContainText(name);
      await expect(row).toContainText('Pending');
      await expect(row).toContainText(`•••• ${last4(rail.stored)}`);
      const html = await page.content();
      expect(html).not.toContain(rail.stored);
      if (rail.routingNumber && rail.rail !== 'SWIFT')
        expect(html).not.toContain(rail.routingNumber);
    });
  }
});

interface RuleCase {
  rule: string;
  rail: RegExp;
  /** Valid values for the rail's other fields, then the bad one (last). */
  fields: Fill;
  field: string;
  message: string;
}

const US_ACH_VALID: Fill = {
  'Account holder name': 'Acme Payroll',
  'Account number': '000123456789',
  'ABA routing number': '021000021',
  'Bank name': 'JPMorgan Chase Bank',
};
const US_WIRE_VALID: Fill = {
  ...US_ACH_VALID,
  'Street address': '383 Madison Ave',
  City: 'New York',
  State: 'NY',
  'ZIP code': '10179',
};
const SWIFT_VALID: Fill = {
  'Account holder name': 'Acme Ltd',
  Country: 'GB',
  'Account number or IBAN': 'GB29NWBK60161331926819',
  'BIC (SWIFT code)': 'NWBKGB2L',
  'Bank name': 'NatWest',
  'Street address': '250 Bishopsgate',
  City: 'London',
  'Postal code': 'EC2M 4AA',
};

const RULES: RuleCase[] = [
  {
    rule: 'ABA routing checksum',
    rail: /^US ACH/,
    fields: { ...US_ACH_VALID, 'ABA routing number': '021000022' },
    field: 'ABA routing number',
    message: 'ABA routing number must be a 9-digit ABA routing number with a valid checksum',
  },
  {
    rule: 'US account number digits',
    rail: /^US ACH/,
    fields: { ...US_ACH_VALID, 'Account number': '12AB3456' },
    field: 'Account number',
    message: 'Account number must be 4 to 17 digits',
  },
  {
    rule: 'US ZIP code',
    rail: /^US wire/,
    fields: { ...US_WIRE_VALID, 'ZIP code': '1017' },
    field: 'ZIP code',
    message: 'ZIP code must be a US ZIP code: 5 digits, or ZIP+4 like "10017-2070"',
  },
  {
    rule: 'IBAN checksum',
    rail: /^SEPA/,
    fields: {
      'Account holder name': 'Acme GmbH',
      'Bank name': 'Commerzbank',
      Country: 'DE',
      IBAN: 'DE89 3704 0044 0532 0130 01',
    },
    field: 'IBAN',
    message: 'IBAN must be a valid IBAN for SEPA',
  },
  {
    rule: 'IBAN outside SEPA',
    rail: /^SEPA/,
    fields: {
      'Account holder name': 'Acme Brasil',
      'Bank name': 'Banco do Brasil',
      Country: 'BR',
      IBAN: 'BR9700360305000010009795493P1',
    },
    field: 'IBAN',
    message: 'IBAN is an IBAN of BR, which is not a SEPA country',
  },
  {
    rule: "IBAN's country matching the account's",
    rail: /^SEPA/,
    fields: {
      'Account holder name': 'Acme SAS',
      'Bank name': 'Commerzbank',
      IBAN: 'DE89370400440532013000',
      Country: 'FR',
    },
    field: 'Country',
    message: "Country must match the IBAN's country (DE)",
  },
  {
    rule: 'BIC format',
    rail: /^SWIFT/,
    fields: { ...SWIFT_VALID, 'BIC (SWIFT code)': 'NWBK12' },
    field: 'BIC (SWIFT code)',
    message: 'BIC (SWIFT code) must be a valid BIC (SWIFT code), like "DEUTDEFF"',
  },
  {
    rule: 'an IBAN where the SWIFT country uses one',
    rail: /^SWIFT/,
    fields: { ...SWIFT_VALID, 'Account number or IBAN': '31926819' },
    field: 'Account number or IBAN',
    message: 'Account number or IBAN must be a valid IBAN for GB',
  },
  {
    rule: 'ISO country code',
    rail: /^Bank transfer/,
    fields: {
      'Account holder name': 'Acme KK',
      'Account number': '0012345678',
      'Bank name': 'MUFG Bank',
      Country: 'XQ',
    },
    field: 'Country',
    message: 'Country must be a two-letter ISO 3166 code in capitals, like "US"',
  },
];

test.describe('Proposing a bank account: each rule refused before sending', () => {
  // One form for every rule, as a member correcting one proposal after another: choosing
  // another rail clears the last rail's errors, and each case fills every field of its rail,
  // so only its bad field is wrong when it is sent. Each rule is a step of its own.
  test("every required field, then each rule: the field's message, announced, and nothing typed lost; the form with errors passes axe", async ({
    page,
  }) => {
    test.slow();
    const creates = countCreates(page);
    const form = await openForm(page);
    await expectNoAxeViolations(page);

    await test.step('the rail choices are full-size radio buttons at every width', async () => {
      const viewport = page.viewportSize();
      for (const width of [1440, 1024, 390]) {
        await page.setViewportSize({ width, height: 900 });
        for (const radio of await form.getByRole('radio').all()) {
          const box = await radio.boundingBox();
          expect(box?.width, `${width} px`).toBeCloseTo(16, 0);
          expect(box?.height, `${width} px`).toBeCloseTo(16, 0);
        }
      }
      if (viewport) await page.setViewportSize(viewport);
    });

    await test.step('every required field of the rail is named', async () => {
      // No rail yet: the form asks for one first.
      await form.getByRole('button', { name: 'Propose bank account' }).click();
      await expect(form.getByRole('alert')).toHaveText('Choose a payment rail first');

      await form.getByRole('radio', { name: /^US wire/ }).check();
      await form.getByLabel('City', { exact: true }).fill('Boston');
      await form.getByRole('button', { name: 'Propose bank account' }).click();
      for (const label of [
        'Account holder name',
        'Account number',
        'ABA routing number',
        'Bank name',
        'Street address',
        'State',
        'ZIP code',
      ]) {
        await expect(form.getByLabel(label, { exact: true })).toHaveAttribute(
          'aria-invalid',
          'true',
        );
        await expect(form).toContainText(`${label} is required for US wire`);
      }
      await expect(form.getByLabel('Account holder name', { exact: true })).toBeFocused();
      await expect(form.getByLabel('City', { exact: true })).toHaveValue('Boston');
      await expect(form.getByLabel('City', { exact: true })).not.toHaveAttribute('aria-invalid');
      await expectNoAxeViolations(page);
    });

    for (const rule of RULES) {
      await test.step(rule.rule, async () => {
        await form.getByRole('radio', { name: rule.rail }).check();
        await fill(form, rule.fields);
        await form.getByRole('button', { name: 'Propose bank account' }).click();

        const control = form.getByLabel(rule.field, { exact: true });
        await expect(control).toHaveAttribute('aria-invalid', 'true');
        await expect(control).toBeFocused();
        const describedBy = (await control.getAttribute('aria-describedby')) ?? '';
        const error = page.locator(`[id="${describedBy.split(' ').at(-1)}"]`);
        await expect(error).toHaveText(rule.message);
        await expect(error).toHaveAttribute('role', 'alert');
        // Only that field is wrong; the rest stands as typed.
        await expect(form.getByRole('alert')).toHaveCount(1);
        for (const [label, value] of Object.entries(rule.fields)) {
          const typed = form.getByLabel(label, { exact: true });
          const shown = await typed.inputValue();
          expect(shown.replace(/\s/g, '').toUpperCase()).toBe(
            value.replace(/\s/g, '').toUpperCase(),
          );
        }
        await expect(page).toHaveURL(/\/bank-accounts\/new/);
      });
    }
    expect(creates()).toBe(0);
  });

  test('the server refuses the same rules for a request the page never checked', async ({
    page,
    baseURL,
  }) => {
    // The story's page is signed in already: no page to load for a request of its own.
    const session = (await (await page.request.get('/auth/session')).json()) as {
      csrfToken: string;
    };
    const response = await page.request.post(CREATE_PATH, {
      headers: { Origin: new URL(baseURL ?? '').origin, 'X-CSRF-Token': session.csrfToken },
      data: { ...apiBody(), routingNumber: '021000022' },
    });
    expect(response.status()).toBe(400);
    const body = (await response.json()) as {
      code: string;
      message: string;
      fields?: Array<{ field: string; message: string }>;
    };
    expect(body.code).toBe('VALIDATION_ERROR');
    expect(body.fields).toContainEqual({
      field: 'routingNumber',
      message: 'routingNumber must be a 9-digit ABA routing number with a valid checksum',
    });
  });
});

function apiBody() {
  return {
    paymentMethod: 'US_ACH',
    accountName: uniqueName('E2E refused'),
    accountNumber: usAccountNumber(),
    routingNumber: '021000021',
    bankName: 'JPMorgan Chase Bank',
    country: 'US',
  };
}

test.describe('Proposing an account that is already there', () => {
  test('the form names the identical account, proposes nothing, and proposes it only when asked again', async ({
    page,
    baseURL,
  }) => {
    const creates = countCreates(page);
    const number = usAccountNumber();
    const achFields = {
      'Account number': number,
      'ABA routing number': '021000021',
      'Bank name': 'JPMorgan Chase Bank',
    };
    // The account already there, proposed through the API: the story is about the second one.
    const { id: firstId, accountName: first } = await proposeByApi(page, baseURL ?? '', {
      accountName: uniqueName('E2E first'),
      accountNumber: number,
    });

    // The same rail and numbers again, under another name.
    const form = await openForm(page);
    await form.getByRole('radio', { name: /^US ACH/ }).check();
    await fill(form, { 'Account holder name': uniqueName('E2E again'), ...achFields });
    await form.getByRole('button', { name: 'Propose bank account' }).click();
    const warning = form.getByRole('alert').filter({ hasText: 'already in your scope' });
    await expect(warning).toContainText('Nothing was proposed');
    await expect(warning).toContainText('Pending');
    const link = warning.getByRole('link', { name: new RegExp(`${first}.*•••• ${last4(number)}`) });
    await expect(link).toHaveAttribute('href', `/bank-accounts/${firstId}`);
    await expect(page).toHaveURL(/\/bank-accounts\/new/);
    expect(creates()).toBe(0);
    await expectNoAxeViolations(page);

    await warning.getByRole('button', { name: 'Propose it anyway' }).dblclick();
    await expect(page).toHaveURL(/\/bank-accounts\/(?!new)[^/?]+(\?|$)/);
    await expect(page.getByRole('region', { name: 'Details' })).toContainText('Pending');
    expect(creates()).toBe(1);
  });
});

test.describe('Proposing a bank account with the keyboard alone', () => {
  test('from the list to the new Pending account', async ({ page }) => {
    const name = uniqueName('E2E keyboard');
    const number = usAccountNumber();
    await page.goto('/bank-accounts');
    // Enter on the link before hydration is a cold load of the form, not the app's navigation.
    await expectHydrated(page);
    await tabTo(page, page.getByRole('link', { name: 'Propose bank account' }));
    await page.keyboard.press('Enter');
    const form = page.getByRole('form', { name: 'Propose a bank account' });
    await expect(form).toBeVisible();

    const ach = form.getByRole('radio', { name: /^US ACH/ });
    await tabTo(page, ach);
    await page.keyboard.press('Space');
    await expect(ach).toBeChecked();
    // Arrow keys move between rails; back to US ACH.
    await page.keyboard.press('ArrowRight');
    await expect(form.getByRole('radio', { name: /^US wire/ })).toBeChecked();
    await page.keyboard.press('ArrowLeft');
    await expect(ach).toBeChecked();

    for (const [label, value] of Object.entries({
      'Account holder name': name,
      'Account number': number,
      'ABA routing number': '011000015',
      'Bank name': 'Federal Reserve Bank of Boston',
    })) {
      await tabTo(page, form.getByLabel(label, { exact: true }));
      await page.keyboard.type(value);
    }
    await tabTo(page, form.getByRole('button', { name: 'Propose bank account' }));
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
    await expect(page.getByRole('region', { name: 'Details' })).toContainText(
      `•••• ${last4(number)}`,
    );
  });
});
