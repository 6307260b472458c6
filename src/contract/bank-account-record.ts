import { z } from 'zod';
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
