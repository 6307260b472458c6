import * as z from 'zod/mini';

/**
 * Value lists of the custody API. The description shows only a few values;
 * the rest come from the provider's public SDKs.
 *
 * Request schemas use the strict `z.enum`; response schemas use
 * `lenientEnum`, so a value the upstream adds later is kept instead of
 * failing the whole record.
 */
export function lenientEnum<const T extends readonly [string, ...string[]]>(
  _values: T,
): z.ZodMiniType<T[number] | (string & {})> {
  return z.string();
}

export const TRANSACTION_STATUSES = [
  'DRAFT',
  'PENDING',
  'APPROVED',
  'SIGNED',
  'SUBMITTED',
  'WAITING_CONFIRMATION',
  'COMPLETED',
  'FAILED',
  'DECLINED',
] as const;
export const TransactionStatus = z.enum(TRANSACTION_STATUSES);
export type TransactionStatus = z.infer<typeof TransactionStatus>;

/**
 * The path an outgoing transaction takes when nothing stops it, in order
 * (docs/api-rules.md, "Lifecycle"): every status above but the draft and the two that
 * end it early, FAILED and DECLINED.
 */
export const TRANSACTION_LIFECYCLE: readonly TransactionStatus[] = TRANSACTION_STATUSES.filter(
  (status) => status !== 'DRAFT' && status !== 'FAILED' && status !== 'DECLINED',
);

export const TERMINAL_TRANSACTION_STATUSES = ['COMPLETED', 'FAILED', 'DECLINED'] as const;
export function isTerminalStatus(status: string | undefined): boolean {
  return (TERMINAL_TRANSACTION_STATUSES as readonly string[]).includes(status ?? '');
}

export const TRANSACTION_CATEGORIES = [
  'TRANSFER',
  'SWAP',
  'TOKEN_TRANSFER',
  'TOKEN_APPROVAL',
  'CONTRACT_CALL',
  'STAKE',
  'REVOKE_TOKEN_ALLOWANCE',
  'ON_RAMP',
  'OFF_RAMP',
  'DELEGATE_RESOURCE',
  // The newest JS SDK's category for a conversion through a provider: the sandbox's FX (fiat to fiat).
  'RAMP',
] as const;
export const TransactionCategory = z.enum(TRANSACTION_CATEGORIES);
export type TransactionCategory = z.infer<typeof TransactionCategory>;

export const TRANSACTION_TYPES = ['INCOMING', 'OUTGOING'] as const;
export const TransactionType = z.enum(TRANSACTION_TYPES);
export type TransactionType = z.infer<typeof TransactionType>;

export const TRANSACTION_SUB_CATEGORIES = [
  'INCOMING_TRANSFER',
  'EXTERNAL_TRANSFER',
  'INTERNAL_TRANSFER',
  'MARKET_TRADE',
  'LIMIT_TRADE',
  'CONTRACT_CALL',
  'STAKE',
  'UNSTAKE',
  'CLAIM',
  'ON_RAMP',
  'OFF_RAMP',
  'DELEGATE_RESOURCE',
  // The newest JS SDK's sub-category of a RAMP traded and paid out to a bank: the sandbox's FX.
  'TRADE_WITHDRAW',
] as const;
export const TransactionSubCategory = z.enum(TRANSACTION_SUB_CATEGORIES);
export type TransactionSubCategory = z.infer<typeof TransactionSubCategory>;

export const PARTY_TYPES = [
  'VAULT',
  'CONTACT',
  'EXTERNAL_ADDRESS',
  'EXTERNAL_BANK_ACCOUNT',
  'BANK_ACCOUNT',
] as const;
export const PartyType = z.enum(PARTY_TYPES);
export type PartyType = z.infer<typeof PartyType>;

export const OPERATION_STATUSES = [
  'PENDING',
  'PROCESSING',
  'COMPLETED',
  'FAILED',
  'SKIPPED',
  'CANCELLED',
  'REVERSED',
] as const;
export const OperationStatus = z.enum(OPERATION_STATUSES);
export type OperationStatus = z.infer<typeof OperationStatus>;

export const OPERATION_TYPES = ['DEPOSIT', 'TRADE', 'TRANSFER', 'WITHDRAW'] as const;
export const OperationType = z.enum(OPERATION_TYPES);
export type OperationType = z.infer<typeof OperationType>;

export const BANK_ACCOUNT_STATUSES = ['PENDING', 'APPROVED', 'DECLINED'] as const;
export const BankAccountStatus = z.enum(BANK_ACCOUNT_STATUSES);
export type BankAccountStatus = z.infer<typeof BankAccountStatus>;

export const PAYMENT_METHODS = ['US_ACH', 'US_WIRE', 'SEPA', 'SWIFT', 'BANK_TRANSFER'] as const;
export const PaymentMethod = z.enum(PAYMENT_METHODS);
export type PaymentMethod = z.infer<typeof PaymentMethod>;

export const FEE_TIERS = ['HIGH', 'MEDIUM', 'LOW'] as const;
export const FeeTier = z.enum(FEE_TIERS);
export type FeeTier = z.infer<typeof FeeTier>;

export const RESOURCE_TYPES = ['TRON_ENERGY', 'TRON_BANDWIDTH'] as const;
export const ResourceType = z.enum(RESOURCE_TYPES);
export type ResourceType = z.infer<typeof ResourceType>;

export const VAULT_TYPES = ['DEFAULT', 'EXCHANGE', 'GAS'] as const;
export const VaultType = z.enum(VAULT_TYPES);
export type VaultType = z.infer<typeof VaultType>;

export const CONTACT_STATUSES = ['PENDING', 'APPROVED', 'DECLINED'] as const;
export const ContactStatus = z.enum(CONTACT_STATUSES);
export type ContactStatus = z.infer<typeof ContactStatus>;

/** What a change request asks to approve (the `entityType` of its approval message). */
export const CHANGE_REQUEST_ENTITY_TYPES = [
  'BANK_ACCOUNT',
  'TRANSACTION',
  'CONTACT',
  'VAULT',
] as const;
export type ChangeRequestEntityType = (typeof CHANGE_REQUEST_ENTITY_TYPES)[number];

/**
 * CANCELLED: closed by whoever called the entity off (a scheduled transfer
 * cancelled before its time), not decided by an approver. The SDKs read no
 * change request's status, so the console's history is where it shows.
 */
export const CHANGE_REQUEST_STATUSES = ['PENDING', 'APPROVED', 'REJECTED', 'CANCELLED'] as const;

/**
 * Who created or decided something in the sandbox: an API user, a staff
 * member, or nobody (ANONYMOUS: created below the HTTP layer, by the seed or
 * an in-process test; never a decider).
 */
export const CREATOR_TYPES = ['API_USER', 'STAFF', 'ANONYMOUS'] as const;
export type CreatorType = (typeof CREATOR_TYPES)[number];
