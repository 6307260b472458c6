import { describe, expect, it } from 'vitest';
import {
  BankAccount,
  BankAccountCreateRequest,
  BankAccountFilters,
  isValidAbaRoutingNumber,
  maskAccountNumber,
  maskNumbersIn,
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
    const errors = fieldErrors({
      ...ach,
      accountNumber: '12ab',
      routingNumber: '021000022',
      country: 'CA',
    });
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
    expect(
      fieldErrors({ ...base, accountNumber: 'DE89370400440532013000', country: 'FR' }).country,
    ).toMatch(/match the IBAN/);
    expect(
      fieldErrors({ ...base, accountNumber: 'DE89370400440532013001', country: 'DE' })
        .accountNumber,
    ).toMatch(/valid IBAN/);
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
    expect(fieldErrors({ ...swift, accountNumber: '12345678' }).accountNumber).toMatch(
      /valid IBAN for GB/,
    );
    // A country without IBANs takes a plain account number.
    expect(
      BankAccountCreateRequest.safeParse({
        ...swift,
        country: 'JP',
        accountNumber: '1234567',
        routingNumber: 'BOTKJPJT',
      }).success,
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

// One rule per case, each with real identifiers: the form and the server share these schemas.
describe('rail rules, rule by rule', () => {
  const wire = {
    ...ach,
    paymentMethod: 'US_WIRE',
    streetLine: '383 Madison Ave',
    city: 'New York',
    state: 'NY',
    postalCode: '10179',
  };
  const sepa = { paymentMethod: 'SEPA', accountName: 'Acme Europe', bankName: 'Bank' };
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
  const transfer = {
    paymentMethod: 'BANK_TRANSFER',
    accountName: 'Acme KK',
    accountNumber: '1234567',
    bankName: 'MUFG',
    country: 'JP',
  };

  it.each([
    ['021000021', 'JPMorgan Chase, New York'],
    ['011000015', 'Federal Reserve Bank of Boston'],
    ['026009593', 'Bank of America, New York'],
    ['121000248', 'Wells Fargo, San Francisco'],
    ['322271627', 'JPMorgan Chase, California'],
  ])('accepts the real ABA routing number %s (%s) on both US rails', (routingNumber) => {
    expect(BankAccountCreateRequest.safeParse({ ...ach, routingNumber }).success).toBe(true);
    expect(BankAccountCreateRequest.safeParse({ ...wire, routingNumber }).success).toBe(true);
  });

  it.each([
    ['021000022', /checksum/],
    ['02100002', /9-digit/],
    ['0210000211', /9-digit/],
    ['02100002A', /9-digit/],
  ])('refuses the routing number %s', (routingNumber, message) => {
    expect(fieldErrors({ ...ach, routingNumber }).routingNumber).toMatch(message);
  });

  it.each([['123'], ['123456789012345678'], ['12-34-56']])(
    'refuses the US account number %s (4 to 17 digits)',
    (accountNumber) => {
      expect(fieldErrors({ ...ach, accountNumber }).accountNumber).toMatch(/4 to 17 digits/);
    },
  );

  it('accepts a complete US_WIRE account and requires its address fields and a US country', () => {
    expect(BankAccountCreateRequest.safeParse(wire).success).toBe(true);
    expect(fieldErrors({ ...wire, state: '', postalCode: undefined })).toEqual({
      state: 'state is required for US_WIRE',
      postalCode: 'postalCode is required for US_WIRE',
    });
    expect(fieldErrors({ ...wire, country: 'GB' }).country).toMatch(/must be US/);
  });

  it.each([['10017'], ['10017-2070'], ['00601']])('accepts the ZIP code %s', (postalCode) => {
    expect(BankAccountCreateRequest.safeParse({ ...wire, postalCode }).success).toBe(true);
  });

  it.each([['1001'], ['100172070'], ['10017-20'], ['EC2R 8BP']])(
    'refuses %s as a US ZIP code',
    (postalCode) => {
      expect(fieldErrors({ ...wire, postalCode }).postalCode).toMatch(/US ZIP code/);
    },
  );

  it.each([['NY'], ['DC'], ['PR']])('accepts the US state code %s', (state) => {
    expect(BankAccountCreateRequest.safeParse({ ...wire, state }).success).toBe(true);
  });

  it.each([['New York'], ['ny'], ['XX']])('refuses %s as a US state', (state) => {
    expect(fieldErrors({ ...wire, state }).state).toMatch(/two-letter US state code/);
  });

  it.each([
    ['DE', 'DE89 3704 0044 0532 0130 00', 'DE89370400440532013000'],
    ['FR', 'FR14 2004 1010 0505 0001 3M02 606', 'FR1420041010050500013M02606'],
    ['NL', 'NL91ABNA0417164300', 'NL91ABNA0417164300'],
    ['ES', 'ES91 2100 0418 4502 0005 1332', 'ES9121000418450200051332'],
    ['IT', 'IT60 X054 2811 1010 0000 0123 456', 'IT60X0542811101000000123456'],
    ['BE', 'be68 5390 0754 7034', 'BE68539007547034'],
    ['AT', 'AT61 1904 3002 3457 3201', 'AT611904300234573201'],
  ])(
    'accepts a SEPA IBAN of %s typed with spaces, stored electronically',
    (country, typed, stored) => {
      const parsed = BankAccountCreateRequest.parse({ ...sepa, accountNumber: typed, country });
      expect(parsed.accountNumber).toBe(stored);
    },
  );

  it('refuses a SEPA IBAN with a broken checksum, of a non-SEPA country, or another country', () => {
    expect(
      fieldErrors({ ...sepa, accountNumber: 'FR1420041010050500013M02607', country: 'FR' })
        .accountNumber,
    ).toMatch(/valid IBAN/);
    expect(
      fieldErrors({ ...sepa, accountNumber: 'SA0380000000608010167519', country: 'SA' })
        .accountNumber,
    ).toMatch(/not a SEPA country/);
    expect(
      fieldErrors({ ...sepa, accountNumber: 'NL91ABNA0417164300', country: 'BE' }).country,
    ).toBe("country must match the IBAN's country (NL)");
    expect(fieldErrors({ ...sepa, country: 'DE' })).toEqual({
      accountNumber: 'accountNumber is required for SEPA',
    });
  });

  // Regression: the 34-character limit counted the spaces of a grouped IBAN, so a
  // Maltese IBAN (31 characters, 38 grouped) or a Brazilian one on SWIFT was refused.
  it.each([
    ['SEPA', 'MT84 MALT 0110 0001 2345 MTLC AST0 01S', 'MT'],
    ['SEPA', 'IT60 X054 2811 1010 0000 0123 456', 'IT'],
    ['SWIFT', 'BR97 0036 0305 0000 1000 9795 493P 1', 'BR'],
  ])(
    'accepts a long %s IBAN typed grouped, %s, and keeps it without spaces',
    (rail, iban, country) => {
      const body =
        rail === 'SEPA'
          ? { ...sepa, accountNumber: iban, country }
          : { ...swift, accountNumber: iban, country };
      const parsed = BankAccountCreateRequest.safeParse(body);
      expect(parsed.success && parsed.data.accountNumber).toBe(iban.replace(/ /g, ''));
    },
  );

  it('names the field when a value is too long', () => {
    const tooLong = BankAccountCreateRequest.safeParse({
      ...transfer,
      accountNumber: 'A'.repeat(35),
    });
    expect(tooLong.error?.issues.map((issue) => issue.message)).toContain(
      'accountNumber must be at most 34 characters, not counting spaces',
    );
    expect(fieldErrors({ ...transfer, bankName: 'B'.repeat(141) }).bankName).toBe(
      'bankName must be at most 140 characters',
    );
  });

  it.each([['NWBKGB2L'], ['DEUTDEFF'], ['DEUTDEFF500'], ['BNPAFRPPXXX'], ['nwbkgb2l']])(
    'accepts the BIC %s (with or without a branch code, any case)',
    (routingNumber) => {
      const parsed = BankAccountCreateRequest.parse({ ...swift, routingNumber });
      expect(parsed.routingNumber).toBe(routingNumber.toUpperCase());
    },
  );

  it.each([['DEUTDEF'], ['DEUTDEFF50'], ['DEUT1EFF'], ['DEUTDEFF5000']])(
    'refuses the BIC %s',
    (routingNumber) => {
      expect(fieldErrors({ ...swift, routingNumber }).routingNumber).toMatch(/valid BIC/);
    },
  );

  it('holds a SWIFT IBAN to its country and requires the address', () => {
    expect(fieldErrors({ ...swift, accountNumber: 'DE89370400440532013000' }).country).toBe(
      "country must match the IBAN's country (DE)",
    );
    expect(fieldErrors({ ...swift, streetLine: '', city: '' })).toEqual({
      streetLine: 'streetLine is required for SWIFT',
      city: 'city is required for SWIFT',
    });
  });

  it.each([['us'], ['USA'], ['XX'], ['1A']])('refuses the country code %s', (country) => {
    expect(fieldErrors({ ...transfer, country }).country).toMatch(/ISO 3166/);
  });

  it('accepts a BANK_TRANSFER account, with letters allowed, and refuses a too-short number', () => {
    expect(BankAccountCreateRequest.safeParse(transfer).success).toBe(true);
    expect(
      BankAccountCreateRequest.safeParse({ ...transfer, accountNumber: 'AB-1234 56' }).success,
    ).toBe(true);
    expect(fieldErrors({ ...transfer, accountNumber: '12' }).accountNumber).toMatch(
      /4 to 34 letters or digits/,
    );
  });
});

describe('maskNumbersIn', () => {
  it('masks what looks like an account number and keeps ids, hashes and times whole', () => {
    const text =
      'Approved 3f1c9a2e-1234-49fb-b123-5498eebac567 at 2026-11-25T20:07:17.920Z ' +
      'tx 0x123456789abcdef0123456 for account 123456789012 on 2026-11-25';
    expect(maskNumbersIn(text)).toBe(
      'Approved 3f1c9a2e-1234-49fb-b123-5498eebac567 at 2026-11-25T20:07:17.920Z ' +
        'tx 0x123456789abcdef0123456 for account •••• 9012 on 2026-11-25',
    );
    expect(maskNumbersIn('IBAN DE89370400440532013000')).toBe('IBAN •••• 3000');
  });
});
