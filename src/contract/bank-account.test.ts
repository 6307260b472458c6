import { describe, expect, it } from 'vitest';
import {
  BankAccount,
  BankAccountCreateRequest,
  BankAccountFilters,
  isValidAbaRoutingNumber,
  maskAccountNumber,
} from './bank-account.ts';

function fieldErrors(input: unknown): Record<string, string> {
  const result = BankAccountCreateRequest.safeParse(input);
  if (result.success) return {};
  return Object.fromEntries(result.error.issues.map((i) => [i.path.join('.'), i.message]));
}

const ach = {
  paymentMethod: 'US_ACH',
  accountName: 'Acme Treasury LLC',
  accountNumber: '000123456789',
  routingNumber: '021000021',
  bankName: 'JPMorgan Chase',
  country: 'US',
};

describe('ABA routing numbers', () => {
  it('accepts real routing numbers and rejects a broken checksum', () => {
    expect(isValidAbaRoutingNumber('021000021')).toBe(true);
    expect(isValidAbaRoutingNumber('011000015')).toBe(true);
    expect(isValidAbaRoutingNumber('021000022')).toBe(false);
    expect(isValidAbaRoutingNumber('02100002')).toBe(false);
  });
});

describe('BankAccountCreateRequest rail rules', () => {
  it('accepts a complete US_ACH account', () => {
    expect(BankAccountCreateRequest.parse(ach)).toMatchObject(ach);
  });

  it('names each missing field for the rail', () => {
    expect(fieldErrors({ paymentMethod: 'US_WIRE', ...{ accountName: 'A' } })).toMatchObject({
      accountNumber: 'accountNumber is required for US_WIRE',
      routingNumber: 'routingNumber is required for US_WIRE',
      streetLine: 'streetLine is required for US_WIRE',
      city: 'city is required for US_WIRE',
      state: 'state is required for US_WIRE',
      postalCode: 'postalCode is required for US_WIRE',
    });
  });

  it('checks US account and routing numbers and the country', () => {
    const errors = fieldErrors({ ...ach, accountNumber: '12ab', routingNumber: '021000022', country: 'CA' });
    expect(errors.accountNumber).toMatch(/4 to 17 digits/);
    expect(errors.routingNumber).toMatch(/checksum/);
    expect(errors.country).toMatch(/must be US/);
  });

  it('accepts a SEPA IBAN with spaces and stores it in electronic form', () => {
    const parsed = BankAccountCreateRequest.parse({
      paymentMethod: 'SEPA',
      accountName: 'Acme GmbH',
      accountNumber: 'DE89 3704 0044 0532 0130 00',
      bankName: 'Commerzbank',
      country: 'DE',
    });
    expect(parsed.accountNumber).toBe('DE89370400440532013000');
  });

  it('refuses a SEPA IBAN whose country differs, or that is invalid', () => {
    const base = { paymentMethod: 'SEPA', accountName: 'A', bankName: 'B' };
    expect(fieldErrors({ ...base, accountNumber: 'DE89370400440532013000', country: 'FR' }).country).toMatch(
      /match the IBAN/,
    );
    expect(fieldErrors({ ...base, accountNumber: 'DE89370400440532013001', country: 'DE' }).accountNumber).toMatch(
      /valid IBAN/,
    );
  });

  it('requires a valid BIC and an IBAN where the SWIFT country uses one', () => {
    const swift = {
      paymentMethod: 'SWIFT',
      accountName: 'Acme Ltd',
      accountNumber: 'GB29NWBK60161331926819',
      routingNumber: 'NWBKGB2L',
      bankName: 'NatWest',
      streetLine: '1 Princes St',
      city: 'London',
      postalCode: 'EC2R 8BP',
      country: 'GB',
    };
    expect(BankAccountCreateRequest.safeParse(swift).success).toBe(true);
    expect(fieldErrors({ ...swift, routingNumber: 'NOPE' }).routingNumber).toMatch(/valid BIC/);
    expect(fieldErrors({ ...swift, accountNumber: '12345678' }).accountNumber).toMatch(/valid IBAN for GB/);
    // A country without IBANs takes a plain account number.
    expect(
      BankAccountCreateRequest.safeParse({ ...swift, country: 'JP', accountNumber: '1234567', routingNumber: 'BOTKJPJT' })
        .success,
    ).toBe(true);
  });

  it('refuses unknown fields and an unknown rail', () => {
    expect(fieldErrors({ ...ach, iban: 'x' })).toHaveProperty('');
    expect(fieldErrors({ ...ach, paymentMethod: 'CHEQUE' })).toHaveProperty('paymentMethod');
  });
});

describe('BankAccount response', () => {
  it('keeps unknown fields and tolerates missing ones', () => {
    const parsed = BankAccount.parse({ id: 'ba_1', newField: 1, status: 'SOMETHING_NEW' });
    expect(parsed).toEqual({ id: 'ba_1', newField: 1, status: 'SOMETHING_NEW' });
  });
});

describe('BankAccountFilters', () => {
  it('refuses an unknown status', () => {
    expect(BankAccountFilters.safeParse({ status: 'OPEN' }).success).toBe(false);
  });
});

describe('maskAccountNumber', () => {
  it('shows only the last four characters', () => {
    expect(maskAccountNumber('000123456789')).toBe('•••• 6789');
    expect(maskAccountNumber('DE89 3704 0044 0532 0130 00')).toBe('•••• 3000');
    expect(maskAccountNumber('123')).toBe('••••');
    expect(maskAccountNumber(undefined)).toBe('');
  });
});
