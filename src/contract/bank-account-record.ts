import * as z from 'zod/mini';
import {
  BANK_ACCOUNT_STATUSES,
  BankAccountStatus,
  PAYMENT_METHODS,
  PaymentMethod,
  lenientEnum,
} from './enums.ts';
import { listEnvelope } from './common.ts';

/**
 * A bank account as the custody API answers it, the list's filters and
 * masking: what the list and detail pages read. The rail rules of a create
 * (IBAN and BIC checks through ibantools) are in bank-account.ts, which
 * re-exports this module; pages that only read import this one, so that the
 * SPA loads those rules with the propose form alone (ARCHITECTURE.md,
 * "First load").
 */

// ---------------------------------------------------------------------------
// Response: lenient.
// ---------------------------------------------------------------------------

export const BankAccount = z.looseObject({
  id: z.optional(z.string()),
  orgId: z.optional(z.string()),
  subOrgId: z.optional(z.nullable(z.string())),
  orgEntityId: z.optional(z.nullable(z.string())),
  createdById: z.optional(z.string()),
  createdAt: z.optional(z.string()),
  updatedAt: z.optional(z.string()),
  isDeleted: z.optional(z.boolean()),
  status: z.optional(lenientEnum(BANK_ACCOUNT_STATUSES)),
  accountNumber: z.optional(z.string()),
  accountName: z.optional(z.string()),
  routingNumber: z.optional(z.nullable(z.string())),
  clientBankAccountId: z.optional(z.nullable(z.string())),
  paymentMethod: z.optional(lenientEnum(PAYMENT_METHODS)),
  bankName: z.optional(z.string()),
  streetLine: z.optional(z.nullable(z.string())),
  city: z.optional(z.nullable(z.string())),
  state: z.optional(z.nullable(z.string())),
  postalCode: z.optional(z.nullable(z.string())),
  country: z.optional(z.string()),
});
export type BankAccount = z.infer<typeof BankAccount>;

export const BankAccountListResponse = listEnvelope(BankAccount);
export type BankAccountListResponse = z.infer<typeof BankAccountListResponse>;

export const BankAccountFilters = z.object({
  status: z.optional(BankAccountStatus),
  paymentMethod: z.optional(PaymentMethod),
  country: z.optional(
    z.string().check(z.regex(/^[A-Z]{2}$/, 'country must be a two-letter ISO 3166 code like "US"')),
  ),
  subOrgId: z.optional(z.string().check(z.minLength(1))),
});
export type BankAccountFilters = z.infer<typeof BankAccountFilters>;

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
  // Ids, hashes and times are kept whole: masking a digit run inside them
  // corrupted them ("…49fb-b•••• 5498eebac567", "at •••• 1-25T20:07:17Z").
  return text.replace(MASKED_OR_KEPT, (m, kept: string | undefined) =>
    kept !== undefined ? kept : maskAccountNumber(m),
  );
}

const KEPT_WHOLE = [
  /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/, // a UUID
  /0x[0-9a-fA-F]+/, // a hash or address
  /\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/, // a date or time
].map((r) => r.source);
const MASKED_OR_KEPT = new RegExp(
  `(${KEPT_WHOLE.join('|')})|[A-Z]{2}\\d{2}[A-Z0-9 ]{8,}|\\d[\\d -]{4,}\\d`,
  'g',
);

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
  accountNumber: z.nullable(z.string()),
  routingNumber: z.optional(z.nullable(z.string())),
});
export type RevealedBankAccount = z.infer<typeof RevealedBankAccount>;
