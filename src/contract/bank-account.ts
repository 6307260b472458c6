import { electronicFormatIBAN, isSEPACountry, isValidBIC, isValidIBAN } from 'ibantools';
import { getCountrySpecifications } from 'ibantools';
import { z } from 'zod';
import { displayTextProblem } from './display-text.ts';
import { PaymentMethod } from './enums.ts';

// The account as answered, its filters and masking.
export * from './bank-account-record.ts';

// ---------------------------------------------------------------------------
// Rail rules: which fields each payment method requires and
// how each is checked. One schema serves the form and the server.
// ---------------------------------------------------------------------------

export const BANK_ACCOUNT_TEXT_FIELDS = [
  'accountName',
  'accountNumber',
  'routingNumber',
  'bankName',
  'streetLine',
  'city',
  'state',
  'postalCode',
  'country',
] as const;
export type BankAccountTextField = (typeof BANK_ACCOUNT_TEXT_FIELDS)[number];

// The beneficiary's postal address, which only the wire rails ask for.
const ADDRESS_FIELDS = ['streetLine', 'city', 'state', 'postalCode'] as const;
const allFieldsBut = (...skipped: readonly BankAccountTextField[]) =>
  BANK_ACCOUNT_TEXT_FIELDS.filter((field) => !skipped.includes(field));

/** Each rail's required fields, in the order of BANK_ACCOUNT_TEXT_FIELDS. */
export const REQUIRED_FIELDS_BY_RAIL: Record<PaymentMethod, readonly BankAccountTextField[]> = {
  US_ACH: allFieldsBut(...ADDRESS_FIELDS),
  US_WIRE: allFieldsBut(),
  // The IBAN names the bank: no routing number.
  SEPA: allFieldsBut('routingNumber', ...ADDRESS_FIELDS),
  // An international wire: the address, but no US state.
  SWIFT: allFieldsBut('state'),
  BANK_TRANSFER: allFieldsBut('routingNumber', ...ADDRESS_FIELDS),
};

/** ABA routing number: nine digits whose weighted sum (3,7,1,…) is a multiple of 10. */
export function isValidAbaRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  let total = 0;
  // eslint-disable-next-line no-restricted-syntax -- one digit of a routing number's checksum
  for (let i = 0; i < 9; i += 1) total += Number(value[i]) * (weights[i] ?? 0);
  return total % 10 === 0;
}

/** USPS codes of the states, DC and the territories ACH and Fedwire reach. */
export const US_STATES = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
  'DC',
  'AS',
  'GU',
  'MP',
  'PR',
  'VI',
] as const;
const US_STATE_SET: ReadonlySet<string> = new Set(US_STATES);

/** A US ZIP code: five digits, or ZIP+4. */
const US_ZIP = /^\d{5}(-\d{4})?$/;

function countryUsesIban(country: string): boolean {
  const spec = getCountrySpecifications()[country];
  return Boolean(spec?.chars);
}

function isKnownCountry(country: string): boolean {
  return country in getCountrySpecifications();
}

/** Text an approver reads must read as stored: no control, invisible or text-direction characters. */
const shownAsIs = (field: string) => (value: string, ctx: z.RefinementCtx) => {
  const problem = displayTextProblem(field, value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
};

/** Messages start with the field's name: the API's rule, and what the form shows beside the label. */
const optionalText = (field: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .superRefine(shownAsIs(field))
    .optional();

/** IBAN's longest is 34 characters; spaces (typed, or the form's grouping) do not count toward it. */
const ACCOUNT_NUMBER_MAX = 34;
const accountNumberText = z
  .string()
  .trim()
  // A bound on what is parsed at all: a 34-character number grouped by fours is 42.
  .max(64, 'accountNumber must be at most 64 characters, spaces included')
  .refine(
    (value) => value.replace(/\s+/g, '').length <= ACCOUNT_NUMBER_MAX,
    `accountNumber must be at most ${ACCOUNT_NUMBER_MAX} characters, not counting spaces`,
  )
  .superRefine(shownAsIs('accountNumber'))
  .optional();

const BankAccountCreateFields = z.strictObject({
  paymentMethod: PaymentMethod,
  subOrgId: z.string().trim().min(1).optional(),
  clientBankAccountId: optionalText('clientBankAccountId', 128),
  accountName: optionalText('accountName', 140),
  accountNumber: accountNumberText,
  routingNumber: optionalText('routingNumber', 34),
  bankName: optionalText('bankName', 140),
  streetLine: optionalText('streetLine', 140),
  city: optionalText('city', 80),
  state: optionalText('state', 80),
  postalCode: optionalText('postalCode', 20),
  country: optionalText('country', 2),
});

export const BankAccountCreateRequest = BankAccountCreateFields.superRefine((body, ctx) => {
  const rail = body.paymentMethod;
  const issue = (field: BankAccountTextField, message: string) =>
    ctx.addIssue({ code: 'custom', path: [field], message });

  for (const field of REQUIRED_FIELDS_BY_RAIL[rail]) {
    if (!body[field]) issue(field, `${field} is required for ${rail}`);
  }

  const country = body.country;
  if (country && (!/^[A-Z]{2}$/.test(country) || !isKnownCountry(country))) {
    issue('country', 'country must be a two-letter ISO 3166 code in capitals, like "US"');
  }

  const accountNumber = body.accountNumber;
  const routingNumber = body.routingNumber;
  const iban = accountNumber ? (electronicFormatIBAN(accountNumber) ?? '') : '';

  switch (rail) {
    case 'US_ACH':
    case 'US_WIRE':
      if (country && country !== 'US') issue('country', `country must be US for ${rail}`);
      if (accountNumber && !/^\d{4,17}$/.test(accountNumber)) {
        issue('accountNumber', 'accountNumber must be 4 to 17 digits');
      }
      if (routingNumber && !isValidAbaRoutingNumber(routingNumber)) {
        issue(
          'routingNumber',
          'routingNumber must be a 9-digit ABA routing number with a valid checksum',
        );
      }
      if (body.state && !US_STATE_SET.has(body.state)) {
        issue('state', 'state must be a two-letter US state code in capitals, like "NY"');
      }
      if (body.postalCode && !US_ZIP.test(body.postalCode)) {
        issue(
          'postalCode',
          'postalCode must be a US ZIP code: 5 digits, or ZIP+4 like "10017-2070"',
        );
      }
      break;
    case 'SEPA':
      if (accountNumber) {
        if (!isValidIBAN(iban)) {
          issue('accountNumber', 'accountNumber must be a valid IBAN for SEPA');
        } else if (!isSEPACountry(iban.slice(0, 2))) {
          issue(
            'accountNumber',
            `accountNumber is an IBAN of ${iban.slice(0, 2)}, which is not a SEPA country`,
          );
        } else if (country && iban.slice(0, 2) !== country) {
          issue('country', `country must match the IBAN's country (${iban.slice(0, 2)})`);
        }
      }
      break;
    case 'SWIFT':
      if (accountNumber && country && countryUsesIban(country)) {
        if (!isValidIBAN(iban)) {
          issue('accountNumber', `accountNumber must be a valid IBAN for ${country}`);
        } else if (iban.slice(0, 2) !== country) {
          issue('country', `country must match the IBAN's country (${iban.slice(0, 2)})`);
        }
      } else if (accountNumber && !/^[A-Za-z0-9 -]{4,34}$/.test(accountNumber)) {
        issue('accountNumber', 'accountNumber must be 4 to 34 letters or digits');
      }
      if (routingNumber && !isValidBIC(routingNumber.toUpperCase())) {
        issue('routingNumber', 'routingNumber must be a valid BIC (SWIFT code), like "DEUTDEFF"');
      }
      break;
    case 'BANK_TRANSFER':
      if (accountNumber && !/^[A-Za-z0-9 -]{4,34}$/.test(accountNumber)) {
        issue('accountNumber', 'accountNumber must be 4 to 34 letters or digits');
      }
      break;
  }
}).transform((body) => {
  // Store IBANs and BICs in their electronic form (no spaces, capitals).
  const out = { ...body };
  if (out.accountNumber && (out.paymentMethod === 'SEPA' || out.paymentMethod === 'SWIFT')) {
    const iban = electronicFormatIBAN(out.accountNumber);
    if (iban && isValidIBAN(iban)) out.accountNumber = iban;
  }
  if (out.routingNumber && out.paymentMethod === 'SWIFT')
    out.routingNumber = out.routingNumber.toUpperCase();
  return out;
});
export type BankAccountCreateInput = z.input<typeof BankAccountCreateRequest>;
export type BankAccountCreateRequest = z.output<typeof BankAccountCreateRequest>;
