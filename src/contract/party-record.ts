import * as z from 'zod/mini';
import { lenientEnum, PARTY_TYPES } from './enums.ts';

/**
 * The pieces a transaction and a ramp answer share: a party (a vault,
 * contact, address or bank account as shown), a bank as shown, and a fee.
 * transaction-record.ts and ramp-record.ts both build on these (and
 * transaction-record.ts re-exports them), so neither copies the other and
 * neither imports the other's answers back. zod/mini, like every answer a
 * page reads (ARCHITECTURE.md, "First load").
 */

/**
 * Rails as the two SDK generations name them: a bank account's
 * `paymentMethod` (G1) and an intent's `*PaymentRail` (G2, where a
 * blockchain leg is `BLOCKCHAIN`). `US_ACH` and `ACH` are the same rail.
 */
export const PAYMENT_RAILS = [
  'US_ACH',
  'US_WIRE',
  'SEPA',
  'SWIFT',
  'BANK_TRANSFER',
  'ACH',
  'WIRE',
  'BLOCKCHAIN',
] as const;

/**
 * A bank account as a ramp shows it. A customer's account is masked
 * (`accountNumberMasked` "•••• 6789", no full number or routing number);
 * the sandbox's own deposit account in deposit instructions carries its full
 * numbers, since the payer must wire to them.
 */
export const BankDetails = z.looseObject({
  bankAccountId: z.optional(z.string()),
  bankName: z.optional(z.string()),
  beneficiaryName: z.optional(z.string()),
  accountName: z.optional(z.string()),
  accountNumber: z.optional(z.string()),
  accountNumberMasked: z.optional(z.string()),
  routingNumber: z.optional(z.string()),
  paymentRail: z.optional(lenientEnum(PAYMENT_RAILS)),
  bankAddress: z.optional(z.string()),
  swiftCode: z.optional(z.string()),
  swiftBic: z.optional(z.string()),
  iban: z.optional(z.string()),
  currency: z.optional(z.string()),
  country: z.optional(z.string()),
});
export type BankDetails = z.infer<typeof BankDetails>;

/** A party of a transaction, a ramp's intent or its quote, as answered. */
export const Party = z.looseObject({
  type: z.optional(lenientEnum(PARTY_TYPES)),
  id: z.optional(z.string()),
  subOrgId: z.optional(z.string()),
  name: z.optional(z.string()),
  address: z.optional(z.string()),
  chain: z.optional(z.string()),
  // A ramp's parties: the provider, the rail, the bank as shown (masked).
  provider: z.optional(z.string()),
  paymentRail: z.optional(lenientEnum(PAYMENT_RAILS)),
  bankDetails: z.optional(BankDetails),
  // The same bank under the Python SDK's name (ramp-banks.ts says what each party shows).
  bank: z.optional(BankDetails),
});
export type Party = z.infer<typeof Party>;

/** A fee as answered: on a transaction every member may be missing (a ramp's quote requires two). */
export const TransactionFees = z.looseObject({
  amount: z.optional(z.string()),
  asset: z.optional(z.string()),
  amountInFiat: z.optional(z.string()),
});
export type TransactionFees = z.infer<typeof TransactionFees>;
