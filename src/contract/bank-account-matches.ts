import * as z from 'zod/mini';
import { BankAccount } from './bank-account-record.ts';
import { PaymentMethod } from './enums.ts';

/**
 * POST /api/console/bank_accounts/matches/: before a member proposes a bank
 * account, the console asks whether the same account is already in their
 * scope, pending or approved, so that an identical account is not proposed
 * twice without a word. A POST because the numbers it compares are
 * full: they never go into a URL, where logs and history would keep them.
 * The answer holds the matches masked, like every list. Declared as an
 * endpoint in `endpoints/bank-accounts.ts`.
 */

export const BankAccountMatchRequest = z.object({
  paymentMethod: PaymentMethod,
  accountNumber: z
    .string()
    .check(
      z.minLength(1, 'accountNumber is required'),
      z.maxLength(64, 'accountNumber must be at most 64 characters'),
    ),
  routingNumber: z.optional(
    z.nullable(z.string().check(z.maxLength(64, 'routingNumber must be at most 64 characters'))),
  ),
});
export type BankAccountMatchRequest = z.infer<typeof BankAccountMatchRequest>;

export const BankAccountMatches = z.object({
  /** Pending and approved accounts identical to the proposal, newest first, masked. */
  results: z.array(BankAccount),
  /** False when the scope holds more accounts on that rail than one check reads. */
  complete: z.boolean(),
});
export type BankAccountMatches = z.infer<typeof BankAccountMatches>;

const compact = (value: string | null | undefined) =>
  (value ?? '').replace(/\s+/g, '').toUpperCase();

/**
 * The same account: the same rail, account number (an IBAN with or without
 * its spaces) and routing number. The holder's name is left out: the same
 * number under another name is the same account, and worth the warning more.
 */
export function isSameBankAccount(
  a: {
    paymentMethod?: string | null;
    accountNumber?: string | null;
    routingNumber?: string | null;
  },
  b: {
    paymentMethod?: string | null;
    accountNumber?: string | null;
    routingNumber?: string | null;
  },
): boolean {
  return (
    a.paymentMethod === b.paymentMethod &&
    compact(a.accountNumber) !== '' &&
    compact(a.accountNumber) === compact(b.accountNumber) &&
    compact(a.routingNumber) === compact(b.routingNumber)
  );
}
