import { electronicFormatIBAN, friendlyFormatIBAN, isValidIBAN } from 'ibantools';
import type { FieldErrors, Resolver } from 'react-hook-form';
import {
  BANK_ACCOUNT_TEXT_FIELDS,
  BankAccountCreateRequest,
  REQUIRED_FIELDS_BY_RAIL,
  type BankAccountCreateInput,
  type BankAccountCreateRequest as CreateRequest,
  type BankAccountTextField,
} from '#contract/bank-account.ts';
import type { PaymentMethod } from '#contract/enums.ts';
import { paymentMethodLabel } from '../../lib/labels.ts';

/**
 * What the propose form shows for each rail: exactly the fields the rail
 * requires (REQUIRED_FIELDS_BY_RAIL, the contract's), named the way a
 * treasury member knows them on that rail, checked by the contract's own
 * schema — the one the server runs on the same body.
 */

export interface ProposeFormValues {
  paymentMethod: PaymentMethod | '';
  accountName: string;
  accountNumber: string;
  routingNumber: string;
  bankName: string;
  streetLine: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  clientBankAccountId: string;
  /** The sub-organization the account belongs to; '' = none (the whole organization). */
  subOrgId: string;
}
export type ProposeFormField = Exclude<keyof ProposeFormValues, 'paymentMethod'>;

export const EMPTY_PROPOSAL: ProposeFormValues = {
  paymentMethod: '',
  accountName: '',
  accountNumber: '',
  routingNumber: '',
  bankName: '',
  streetLine: '',
  city: '',
  state: '',
  postalCode: '',
  country: '',
  clientBankAccountId: '',
  subOrgId: '',
};

export const RAIL_DESCRIPTIONS: Record<PaymentMethod, string> = {
  US_ACH: 'US domestic batch payments: account and ABA routing number.',
  US_WIRE: 'US domestic wires (Fedwire): account, ABA routing number and the holder’s address.',
  SEPA: 'Euro payments within the SEPA area: an IBAN.',
  SWIFT: 'International wires: account or IBAN, the bank’s BIC and the holder’s address.',
  BANK_TRANSFER: 'A local transfer elsewhere: account number, bank and country.',
};

const US_RAILS: ReadonlySet<PaymentMethod> = new Set(['US_ACH', 'US_WIRE']);
export const isUsRail = (rail: PaymentMethod | '') => rail !== '' && US_RAILS.has(rail);

export interface FieldSpec {
  label: string;
  hint?: string;
  inputMode?: 'numeric' | 'text';
  autoComplete?: string;
  /** Shown in capitals as typed (codes: country, BIC). */
  upperCase?: boolean;
  maxLength?: number;
}

const BASE: Record<BankAccountTextField, FieldSpec> = {
  accountName: { label: 'Account holder name', autoComplete: 'off' },
  accountNumber: { label: 'Account number', autoComplete: 'off' },
  routingNumber: { label: 'Routing number', autoComplete: 'off' },
  bankName: { label: 'Bank name', autoComplete: 'off' },
  streetLine: { label: 'Street address', autoComplete: 'off' },
  city: { label: 'City', autoComplete: 'off' },
  state: { label: 'State' },
  postalCode: { label: 'Postal code', autoComplete: 'off' },
  country: {
    label: 'Country',
    hint: 'Two-letter ISO 3166 code, like DE or JP.',
    upperCase: true,
    maxLength: 2,
    autoComplete: 'off',
  },
};

const BY_RAIL: Partial<Record<PaymentMethod, Partial<Record<BankAccountTextField, FieldSpec>>>> = {
  US_ACH: {
    accountNumber: { label: 'Account number', hint: '4 to 17 digits.', inputMode: 'numeric' },
    routingNumber: {
      label: 'ABA routing number',
      hint: '9 digits, on the bottom left of a cheque.',
      inputMode: 'numeric',
      maxLength: 9,
    },
    country: { label: 'Country', hint: 'US rails pay US accounts only.' },
  },
  US_WIRE: {
    accountNumber: { label: 'Account number', hint: '4 to 17 digits.', inputMode: 'numeric' },
    routingNumber: {
      label: 'ABA routing number',
      hint: '9 digits; use the bank’s wire routing number.',
      inputMode: 'numeric',
      maxLength: 9,
    },
    postalCode: { label: 'ZIP code', hint: '5 digits, or ZIP+4 like 10017-2070.' },
    country: { label: 'Country', hint: 'US rails pay US accounts only.' },
  },
  SEPA: {
    accountNumber: { label: 'IBAN', hint: 'Spaces are fine, e.g. DE89 3704 0044 0532 0130 00.' },
    country: { ...BASE.country, hint: 'Must be the IBAN’s country (its first two letters).' },
  },
  SWIFT: {
    accountNumber: {
      label: 'Account number or IBAN',
      hint: 'An IBAN where the country uses one.',
    },
    routingNumber: {
      label: 'BIC (SWIFT code)',
      hint: '8 or 11 characters, like DEUTDEFF or DEUTDEFF500.',
      upperCase: true,
      maxLength: 11,
    },
  },
  BANK_TRANSFER: {
    accountNumber: { label: 'Account number', hint: '4 to 34 letters or digits.' },
  },
};

export function fieldSpec(rail: PaymentMethod, field: BankAccountTextField): FieldSpec {
  return { ...BASE[field], autoComplete: 'off', ...BY_RAIL[rail]?.[field] };
}

/** The rail's fields in the order the form shows them. */
export function railFields(rail: PaymentMethod): BankAccountTextField[] {
  const required = new Set(REQUIRED_FIELDS_BY_RAIL[rail]);
  return BANK_ACCOUNT_TEXT_FIELDS.filter((f) => required.has(f));
}

/** Labels of the form's fields that are no rail's. */
const OTHER_LABELS: Record<string, string | undefined> = {
  clientBankAccountId: 'Your reference',
  subOrgId: 'Sub-organization',
};

const SUB_ORG_REQUIRED = 'Choose the sub-organization the account belongs to';

/**
 * The schema's messages name the wire field ("routingNumber must be…") for
 * API clients; the form says it with the label the member sees.
 */
export function humanizeFieldMessage(
  rail: PaymentMethod | '',
  field: string,
  message: string,
): string {
  let text = message;
  if (rail) {
    const spec = (BANK_ACCOUNT_TEXT_FIELDS as readonly string[]).includes(field)
      ? fieldSpec(rail, field as BankAccountTextField)
      : undefined;
    const label = spec?.label ?? OTHER_LABELS[field];
    if (label && text.startsWith(`${field} `)) text = `${label}${text.slice(field.length)}`;
    text = text.replace(`for ${rail}`, `for ${paymentMethodLabel(rail)}`);
  }
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The create body from what the form holds: the rail, its fields and the
 * optional reference (blank ones left out), and the chosen sub-org. Fields
 * of a rail chosen earlier are never sent.
 */
export function toCreateBody(values: ProposeFormValues): BankAccountCreateInput | null {
  if (!values.paymentMethod) return null;
  const body: BankAccountCreateInput = { paymentMethod: values.paymentMethod };
  for (const field of railFields(values.paymentMethod)) {
    const value = values[field].trim();
    if (value) body[field] = value;
  }
  const reference = values.clientBankAccountId.trim();
  if (reference) body.clientBankAccountId = reference;
  if (values.subOrgId) body.subOrgId = values.subOrgId;
  return body;
}

/** A valid IBAN shown in groups of four ("DE89 3704 …"); anything else as typed. */
export function groupIban(value: string): string {
  const iban = electronicFormatIBAN(value);
  return iban && isValidIBAN(iban) ? (friendlyFormatIBAN(iban) ?? value) : value;
}

/**
 * react-hook-form's resolver over the contract schema: the values it hands
 * to submit are exactly the body the server will validate again.
 */
export function proposeResolver(
  /** A member of several sub-organizations names one (the server refuses none, 400). */
  subOrgRequired: boolean,
): Resolver<ProposeFormValues, unknown, CreateRequest> {
  return (values) => {
    const body = toCreateBody(values);
    if (!body) {
      return {
        values: {},
        errors: {
          paymentMethod: { type: 'required', message: 'Choose a payment rail first' },
        } as FieldErrors<ProposeFormValues>,
      };
    }
    const result = BankAccountCreateRequest.safeParse(body);
    const errors: Record<string, { type: string; message: string }> = {};
    if (subOrgRequired && !values.subOrgId)
      errors.subOrgId = { type: 'required', message: SUB_ORG_REQUIRED };
    // IBAN and BIC leave in their electronic form, as the server would store them.
    if (result.success && !errors.subOrgId) return { values: result.data, errors: {} };
    for (const issue of result.success ? [] : result.error.issues) {
      const field = String(issue.path[0] ?? 'paymentMethod');
      // The first problem of a field is the one to fix first.
      errors[field] ??= {
        type: issue.code,
        message: humanizeFieldMessage(values.paymentMethod, field, issue.message),
      };
    }
    return { values: {}, errors: errors as FieldErrors<ProposeFormValues> };
  };
}
