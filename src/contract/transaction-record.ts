import { z } from 'zod';
import {
  OPERATION_STATUSES,
  OPERATION_TYPES,
  PARTY_TYPES,
  TRANSACTION_CATEGORIES,
  TRANSACTION_STATUSES,
  TRANSACTION_SUB_CATEGORIES,
  TRANSACTION_TYPES,
  TransactionCategory,
  TransactionStatus,
  lenientEnum,
} from './enums.ts';
import { IsoTimestamp, listEnvelope } from './common.ts';

/**
 * A transaction as the custody API answers it, the list's filters and the
 * kinds the console creates: what every page reads. The create and fee
 * bodies (which need the decimal maths and address rules) are in
 * transaction.ts, which re-exports this module; the SPA's list pages import
 * this one so that its first load carries no form rules (ARCHITECTURE.md,
 * "First load").
 */

// ---------------------------------------------------------------------------
// Responses: lenient. Every field optional, unknown fields kept.
// ---------------------------------------------------------------------------

export const Party = z.looseObject({
  type: lenientEnum(PARTY_TYPES).optional(),
  id: z.string().optional(),
  subOrgId: z.string().optional(),
  name: z.string().optional(),
  address: z.string().optional(),
  chain: z.string().optional(),
});
export type Party = z.infer<typeof Party>;

export const BalanceChange = z.looseObject({
  party: Party.optional(),
  asset: z.string().optional(),
  amount: z.string().optional(),
  chain: z.string().optional(),
});
export type BalanceChange = z.infer<typeof BalanceChange>;

export const BalanceChanges = z.looseObject({
  changes: z.array(BalanceChange).optional(),
});
export type BalanceChanges = z.infer<typeof BalanceChanges>;

export const Operation = z.looseObject({
  source: Party.optional(),
  destination: Party.optional(),
  balanceChanges: BalanceChanges.optional(),
  sequence: z.number().int().optional(),
  type: lenientEnum(OPERATION_TYPES).optional(),
  status: lenientEnum(OPERATION_STATUSES).optional(),
});
export type Operation = z.infer<typeof Operation>;

export const TransactionFees = z.looseObject({
  amount: z.string().optional(),
  asset: z.string().optional(),
  amountInFiat: z.string().optional(),
});
export type TransactionFees = z.infer<typeof TransactionFees>;

/** One status a transaction has held and when it got there (the sandbox's `statusHistory`). */
export const StatusHistoryEntry = z.looseObject({
  status: lenientEnum(TRANSACTION_STATUSES),
  at: z.string(),
});
export type StatusHistoryEntry = z.infer<typeof StatusHistoryEntry>;

/** A replacement (endpoint 6) of the transaction it is listed on. */
export const ReplacementLink = z.looseObject({
  id: z.string(),
  status: lenientEnum(TRANSACTION_STATUSES).optional(),
  createdAt: z.string().optional(),
});
export type ReplacementLink = z.infer<typeof ReplacementLink>;

export const Transaction = z.looseObject({
  id: z.string().optional(),
  orgId: z.string().optional(),
  subOrgId: z.string().optional(),
  vaultId: z.string().optional(),
  status: lenientEnum(TRANSACTION_STATUSES).optional(),
  transactionType: lenientEnum(TRANSACTION_TYPES).optional(),
  category: lenientEnum(TRANSACTION_CATEGORIES).optional(),
  subCategory: lenientEnum(TRANSACTION_SUB_CATEGORIES).optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  isDeleted: z.boolean().optional(),
  externalId: z.string().nullable().optional(),
  memo: z.string().nullable().optional(),
  source: Party.optional(),
  destination: Party.optional(),
  blockChain: z.string().optional(),
  asset: z.string().optional(),
  amount: z.string().optional(),
  amountInUSD: z.string().optional(),
  txHash: z.string().optional(),
  operations: z.array(Operation).optional(),
  balanceChanges: BalanceChanges.optional(),
  nonce: z.number().int().optional(),
  error: z.string().optional(),
  createdById: z.string().optional(),
  fees: TransactionFees.optional(),
  // Beyond the description, on a single transaction from the sandbox: its
  // timeline, its fee tier, and the replacement links both ways.
  statusHistory: z.array(StatusHistoryEntry).optional(),
  gasParams: z.looseObject({ feeTier: z.string().optional() }).optional(),
  replacesTransactionId: z.string().optional(),
  replacements: z.array(ReplacementLink).optional(),
});
export type Transaction = z.infer<typeof Transaction>;

export const TransactionListResponse = listEnvelope(Transaction);
export type TransactionListResponse = z.infer<typeof TransactionListResponse>;

export const FeeData = z.looseObject({
  expectedFeeInAsset: z.string(),
  asset: z.string(),
  expectedFeeInUSD: z.string(),
  baseFee: z.string().optional(),
  priorityFee: z.string().optional(),
});
export type FeeData = z.infer<typeof FeeData>;

export const EstimatedFeeResponse = z.looseObject({
  high: FeeData,
  medium: FeeData,
  low: FeeData,
});
export type EstimatedFeeResponse = z.infer<typeof EstimatedFeeResponse>;

/** The kinds a create (endpoint 7) takes; `category` selects one. */
export const CREATABLE_CATEGORIES = [
  'TRANSFER',
  'CONTRACT_CALL',
  'STAKE',
  'DELEGATE_RESOURCE',
] as const;

/** Filters of the transaction list (endpoint 4), as query parameters. */
export const TransactionFilters = z.object({
  status: TransactionStatus.optional(),
  category: TransactionCategory.optional(),
  vaultId: z.string().min(1).optional(),
  asset: z.string().min(1).optional(),
  externalId: z.string().min(1).optional(),
  subOrgId: z.string().min(1).optional(),
  createdAtGte: IsoTimestamp.optional(),
  createdAtLte: IsoTimestamp.optional(),
});
export type TransactionFilters = z.infer<typeof TransactionFilters>;
export const TRANSACTION_FILTER_KEYS = Object.keys(TransactionFilters.shape) as Array<
  keyof TransactionFilters
>;
