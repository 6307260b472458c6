import { electronicFormatIBAN, isSEPACountry, isValidBIC, isValidIBAN } from 'ibantools';
import { getCountrySpecifications } from 'ibantools';
import { z } from 'zod';
import {
  BANK_ACCOUNT_STATUSES,
  BankAccountStatus,
  PAYMENT_METHODS,
  PaymentMethod,
  lenientEnum,
} from './enums.ts';
import { listEnvelope } from './common.ts';

// ---------------------------------------------------------------------------
// Response: lenient.
// ---------------------------------------------------------------------------

export const BankAccount = z.looseObject({
  id: z.string().optional(),
  orgId: z.string().optional(),
  subOrgId: z.string().nullable().optional(),
  orgEntityId: z.string().nullable().optional(),
  createdById: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  isDeleted: z.boolean().optional(),
  status: lenientEnum(BANK_ACCOUNT_STATUSES).optional(),
  accountNumber: z.string().optional(),
  accountName: z.string().optional(),
  routingNumber: z.string().nullable().optional(),
  clientBankAccountId: z.string().nullable().optional(),
  paymentMethod: lenientEnum(PAYMENT_METHODS).optional(),
  bankName: z.string().optional(),
  streetLine: z.string().nullable().optional(),
  city: z.string().nullable().optional(),
  state: z.string().nullable().optional(),
  postalCode: z.string().nullable().optional(),
  country: z.string().optional(),
});
export type BankAccount = z.infer<typeof BankAccount>;

export const BankAccountListResponse = listEnvelope(BankAccount);
export type BankAccountListResponse = z.infer<typeof BankAccountListResponse>;

export const BankAccountFilters = z.object({
  status: BankAccountStatus.optional(),
  paymentMethod: PaymentMethod.optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'country must be a two-letter ISO 3166 code like "US"')
    .optional(),
  subOrgId: z.string().min(1).optional(),
});
export type BankAccountFilters = z.infer<typeof BankAccountFilters>;
export const BANK_ACCOUNT_FILTER_KEYS = Object.keys(BankAccountFilters.shape) as Array<
  keyof BankAccountFilters
>;

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

export const REQUIRED_FIELDS_BY_RAIL: Record<PaymentMethod, readonly BankAccountTextField[]> = {
  US_ACH: ['accountName', 'accountNumber', 'routingNumber', 'bankName', 'country'],
  US_WIRE: [
    'accountName',
    'accountNumber',
    'routingNumber',
    'bankName',
    'streetLine',
    'city',
    'state',
    'postalCode',
    'country',
  ],
  SEPA: ['accountName', 'accountNumber', 'bankName', 'country'],
  SWIFT: [
    'accountName',
    'accountNumber',
    'routingNumber',
    'bankName',
    'streetLine',
    'city',
    'postalCode',
    'country',
  ],
  BANK_TRANSFER: ['accountName', 'accountNumber', 'bankName', 'country'],
};

export const FIELD_LABELS: Record<BankAccountTextField, string> = {
  accountName: 'Account holder name',
  accountNumber: 'Account number',
  routingNumber: 'Routing number',
  bankName: 'Bank name',
  streetLine: 'Street address',
  city: 'City',
  state: 'State',
  postalCode: 'Postal code',
  country: 'Country',
};

/** ABA routing number: nine digits whose weighted sum (3,7,1,…) is a multiple of 10. */
export function isValidAbaRoutingNumber(value: string): boolean {
  if (!/^\d{9}$/.test(value)) return false;
  const weights = [3, 7, 1, 3, 7, 1, 3, 7, 1];
  let total = 0;
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
export const US_ZIP = /^\d{5}(-\d{4})?$/;

function countryUsesIban(country: string): boolean {
  const spec = getCountrySpecifications()[country];
  return Boolean(spec?.chars);
}

function isKnownCountry(country: string): boolean {
  return country in getCountrySpecifications();
}

/** Messages start with the field's name: the API's rule, and what the form shows beside the label. */
const optionalText = (field: string, max: number) =>
  z.string().trim().max(max, `${field} must be at most ${max} characters`).optional();

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

// ---------------------------------------------------------------------------
// Masking: full numbers never appear in lists or logs.
// ---------------------------------------------------------------------------

/** "123456789" → "•••• 6789". Short values are masked whole. */
export function maskAccountNumber(value: string | null | undefined): string {
  if (!value) return '';
  const compact = value.replace(/\s+/g, '');
  if (compact.length <= 4) return '••••';
  return `•••• ${compact.slice(-4)}`;
}

/**
 * Free text (a refusal message, a reason a member typed) with every run that
 * looks like an account number or IBAN masked: such text could echo a
 * submitted value, and full numbers never reach the audit log.
 */
export function maskNumbersIn(text: string): string {
  return text.replace(/[A-Z]{2}\d{2}[A-Z0-9 ]{8,}|\d[\d -]{4,}\d/g, (m) => maskAccountNumber(m));
}

/** A bank account as staff may see it: account and routing numbers masked ("•••• 1234"). */
export function maskBankAccount<T extends { accountNumber?: unknown; routingNumber?: unknown }>(
  account: T,
): T {
  const copy = { ...account };
  for (const field of ['accountNumber', 'routingNumber'] as const) {
    const value = copy[field];
    if (typeof value === 'string' && value !== '')
      (copy as Record<string, unknown>)[field] = maskAccountNumber(value);
  }
  return copy;
}

/** GET /api/console/bank_accounts/{id}/reveal/: the full numbers, for the audited reveal only. */
export const RevealedBankAccount = z.looseObject({
  accountNumber: z.string().nullable(),
  routingNumber: z.string().nullable().optional(),
});
export type RevealedBankAccount = z.infer<typeof RevealedBankAccount>;
