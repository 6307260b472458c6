import type { FieldErrors } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_PROPOSAL,
  fieldSpec,
  groupIban,
  humanizeFieldMessage,
  proposeResolver,
  railFields,
  toCreateBody,
  type ProposeFormValues,
} from './rail-fields.ts';

const ach: ProposeFormValues = {
  ...EMPTY_PROPOSAL,
  paymentMethod: 'US_ACH',
  accountName: 'Acme Payroll',
  accountNumber: '000123456789',
  routingNumber: '021000021',
  bankName: 'JPMorgan Chase',
  country: 'US',
};
const sepa: ProposeFormValues = {
  ...EMPTY_PROPOSAL,
  paymentMethod: 'SEPA',
  accountName: 'Acme GmbH',
  accountNumber: 'DE89 3704 0044 0532 0130 00',
  bankName: 'Commerzbank',
  country: 'DE',
};

async function resolve(values: ProposeFormValues, subOrgId?: string, subOrgRequired = false) {
  const chosen = { ...values, subOrgId: subOrgId ?? values.subOrgId };
  const result = await proposeResolver(subOrgRequired)(chosen, undefined, {
    fields: {},
    shouldUseNativeValidation: false,
  });
  const errors = result.errors as FieldErrors<ProposeFormValues>;
  return {
    values: result.values as Record<string, unknown>,
    messages: Object.fromEntries(
      Object.entries(errors).map(([field, error]) => [field, error?.message]),
    ),
  };
}

describe('railFields', () => {
  it('lists exactly the fields each rail requires, in the form’s order', () => {
    expect(railFields('US_ACH')).toEqual([
      'accountName',
      'accountNumber',
      'routingNumber',
      'bankName',
      'country',
    ]);
    expect(railFields('US_WIRE')).toEqual([
      'accountName',
      'accountNumber',
      'routingNumber',
      'bankName',
      'streetLine',
      'city',
      'state',
      'postalCode',
      'country',
    ]);
    expect(railFields('SEPA')).toEqual(['accountName', 'accountNumber', 'bankName', 'country']);
    expect(railFields('SWIFT')).not.toContain('state');
    expect(railFields('SWIFT')).toContain('routingNumber');
    expect(railFields('BANK_TRANSFER')).toEqual([
      'accountName',
      'accountNumber',
      'bankName',
      'country',
    ]);
  });

  it('names each field the way the rail knows it', () => {
    expect(fieldSpec('SEPA', 'accountNumber').label).toBe('IBAN');
    expect(fieldSpec('SWIFT', 'accountNumber').label).toBe('Account number or IBAN');
    expect(fieldSpec('SWIFT', 'routingNumber').label).toBe('BIC (SWIFT code)');
    expect(fieldSpec('US_ACH', 'routingNumber').label).toBe('ABA routing number');
    expect(fieldSpec('US_WIRE', 'postalCode').label).toBe('ZIP code');
    expect(fieldSpec('SWIFT', 'postalCode').label).toBe('Postal code');
    // Numbers are never offered to the browser's autofill.
    expect(fieldSpec('US_ACH', 'accountNumber').autoComplete).toBe('off');
  });
});

describe('humanizeFieldMessage', () => {
  it('puts the rail’s label and name where the API names the wire field and rail', () => {
    expect(
      humanizeFieldMessage('SEPA', 'accountNumber', 'accountNumber is required for SEPA'),
    ).toBe('IBAN is required for SEPA');
    expect(
      humanizeFieldMessage('US_WIRE', 'postalCode', 'postalCode is required for US_WIRE'),
    ).toBe('ZIP code is required for US wire');
    expect(
      humanizeFieldMessage(
        'US_ACH',
        'clientBankAccountId',
        'clientBankAccountId must be at most 128 characters',
      ),
    ).toBe('Your reference must be at most 128 characters');
    // A message of another shape is kept, capitalised.
    expect(humanizeFieldMessage('US_ACH', 'accountName', 'too long')).toBe('Too long');
  });
});

describe('toCreateBody', () => {
  it('sends only the chosen rail’s fields, trimmed, with the reference and the scope’s sub-org', () => {
    const body = toCreateBody({
      ...ach,
      accountName: '  Acme Payroll ',
      // Typed under another rail earlier: not the ACH account's.
      streetLine: '1 Main St',
      city: 'Springfield',
      clientBankAccountId: ' payroll-1 ',
      subOrgId: 'so_1',
    });
    expect(body).toEqual({
      paymentMethod: 'US_ACH',
      accountName: 'Acme Payroll',
      accountNumber: '000123456789',
      routingNumber: '021000021',
      bankName: 'JPMorgan Chase',
      country: 'US',
      clientBankAccountId: 'payroll-1',
      subOrgId: 'so_1',
    });
  });

  it('leaves blank fields out, and has nothing to send before a rail is chosen', () => {
    expect(toCreateBody({ ...ach, bankName: '   ' })).not.toHaveProperty('bankName');
    expect(toCreateBody({ ...ach })).not.toHaveProperty('subOrgId');
    expect(toCreateBody({ ...EMPTY_PROPOSAL, subOrgId: 'so_1' })).toBeNull();
  });
});

describe('groupIban', () => {
  it('groups a valid IBAN by four, however it was typed', () => {
    expect(groupIban('de89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
    expect(groupIban('MT84MALT011000012345MTLCAST001S')).toBe(
      'MT84 MALT 0110 0001 2345 MTLC AST0 01S',
    );
  });

  it('leaves anything else as typed', () => {
    expect(groupIban('DE89370400440532013001')).toBe('DE89370400440532013001');
    expect(groupIban('000123456789')).toBe('000123456789');
  });
});

describe('proposeResolver', () => {
  it('asks for a rail first', async () => {
    expect((await resolve(EMPTY_PROPOSAL)).messages).toEqual({
      paymentMethod: 'Choose a payment rail first',
    });
  });

  it('asks a member of several sub-organizations to choose one, beside the rail’s own rules', async () => {
    expect((await resolve({ ...ach, accountName: '' }, undefined, true)).messages).toEqual({
      subOrgId: 'Choose the sub-organization the account belongs to',
      accountName: 'Account holder name is required for US ACH',
    });
    expect((await resolve(ach, 'so_1', true)).values).toMatchObject({ subOrgId: 'so_1' });
  });

  it('hands submit the body the server will store: IBAN without spaces, BIC in capitals', async () => {
    expect((await resolve(sepa, 'so_1')).values).toEqual({
      paymentMethod: 'SEPA',
      accountName: 'Acme GmbH',
      accountNumber: 'DE89370400440532013000',
      bankName: 'Commerzbank',
      country: 'DE',
      subOrgId: 'so_1',
    });
    const swift = await resolve({
      ...EMPTY_PROPOSAL,
      paymentMethod: 'SWIFT',
      accountName: 'Acme Ltd',
      accountNumber: 'GB29 NWBK 6016 1331 9268 19',
      routingNumber: 'nwbkgb2l',
      bankName: 'NatWest',
      streetLine: '250 Bishopsgate',
      city: 'London',
      postalCode: 'EC2M 4AA',
      country: 'GB',
    });
    expect(swift.values).toMatchObject({
      accountNumber: 'GB29NWBK60161331926819',
      routingNumber: 'NWBKGB2L',
    });
  });

  it.each<[string, ProposeFormValues, Record<string, string>]>([
    [
      'an ABA checksum',
      { ...ach, routingNumber: '021000022' },
      {
        routingNumber:
          'ABA routing number must be a 9-digit ABA routing number with a valid checksum',
      },
    ],
    [
      'US account digits',
      { ...ach, accountNumber: '12-34' },
      { accountNumber: 'Account number must be 4 to 17 digits' },
    ],
    [
      'a US country on US rails',
      { ...ach, country: 'CA' },
      { country: 'Country must be US for US ACH' },
    ],
    [
      'a US state',
      {
        ...ach,
        paymentMethod: 'US_WIRE',
        streetLine: '383 Madison Ave',
        city: 'New York',
        state: 'XY',
        postalCode: '10179',
      },
      { state: 'State must be a two-letter US state code in capitals, like "NY"' },
    ],
    [
      'a ZIP code',
      {
        ...ach,
        paymentMethod: 'US_WIRE',
        streetLine: '383 Madison Ave',
        city: 'New York',
        state: 'NY',
        postalCode: '1017',
      },
      { postalCode: 'ZIP code must be a US ZIP code: 5 digits, or ZIP+4 like "10017-2070"' },
    ],
    [
      'an IBAN checksum',
      { ...sepa, accountNumber: 'DE89 3704 0044 0532 0130 01' },
      { accountNumber: 'IBAN must be a valid IBAN for SEPA' },
    ],
    [
      'the IBAN’s country',
      { ...sepa, country: 'FR' },
      { country: "Country must match the IBAN's country (DE)" },
    ],
    [
      'an ISO country code',
      { ...sepa, paymentMethod: 'BANK_TRANSFER', accountNumber: '1234567', country: 'XQ' },
      { country: 'Country must be a two-letter ISO 3166 code in capitals, like "US"' },
    ],
    [
      'every required field, by its label',
      { ...EMPTY_PROPOSAL, paymentMethod: 'SEPA', bankName: 'Commerzbank' },
      {
        accountName: 'Account holder name is required for SEPA',
        accountNumber: 'IBAN is required for SEPA',
        country: 'Country is required for SEPA',
      },
    ],
  ])('refuses %s with the field’s own message', async (_rule, values, messages) => {
    const result = await resolve(values);
    expect(result.messages).toEqual(messages);
    expect(result.values).toEqual({});
  });
});
