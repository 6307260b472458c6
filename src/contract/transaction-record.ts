import * as z from 'zod/mini';
import {
  FEE_TIERS,
  OPERATION_STATUSES,
  OPERATION_TYPES,
  TRANSACTION_CATEGORIES,
  TRANSACTION_STATUSES,
  TRANSACTION_SUB_CATEGORIES,
  TRANSACTION_TYPES,
  TransactionCategory,
  TransactionStatus,
  lenientEnum,
} from './enums.ts';
import { IsoTimestamp, listEnvelope } from './common.ts';
import { Party, TransactionFees } from './party-record.ts';
import { DepositInstructions, RampIntent, RampQuote, RampRequote } from './ramp-record.ts';

// A party and a fee as answered, shared with the ramps' answers (party-record.ts).
export { Party, TransactionFees };

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

/** A swap's quote request as the transaction keeps it (trades.ts's TradeRequestData). */
export const TradeRequestRecord = z.looseObject({
  fromAsset: z.optional(z.string()),
  fromAmount: z.optional(z.string()),
  toAsset: z.optional(z.string()),
  blockChain: z.optional(z.string()),
  toBlockchain: z.optional(z.string()),
  slippage: z.optional(z.string()),
  fromAmountUSD: z.optional(z.string()),
});

/** The provider's answer a swap executes (trades.ts's TradeResponseData). */
export const TradeResponseRecord = z.looseObject({
  quoteId: z.optional(z.string()),
  sourceName: z.optional(z.string()),
  finalToAmount: z.optional(z.string()),
  minimumToAmount: z.optional(z.string()),
  unitToAssetAmount: z.optional(z.string()),
  quotesValidTill: z.optional(z.string()),
  finalToAmountUSD: z.optional(z.string()),
  feeInUSD: z.optional(z.string()),
  fromAmount: z.optional(z.string()),
  fees: z.optional(
    z.looseObject({ amount: z.optional(z.string()), asset: z.optional(z.string()) }),
  ),
});
export type TradeResponseRecord = z.infer<typeof TradeResponseRecord>;

export const BalanceChange = z.looseObject({
  party: z.optional(Party),
  asset: z.optional(z.string()),
  amount: z.optional(z.string()),
  chain: z.optional(z.string()),
});
export type BalanceChange = z.infer<typeof BalanceChange>;

export const BalanceChanges = z.looseObject({
  changes: z.optional(z.array(BalanceChange)),
});
export type BalanceChanges = z.infer<typeof BalanceChanges>;

export const Operation = z.looseObject({
  source: z.optional(Party),
  destination: z.optional(Party),
  balanceChanges: z.optional(BalanceChanges),
  sequence: z.optional(z.int()),
  type: z.optional(lenientEnum(OPERATION_TYPES)),
  status: z.optional(lenientEnum(OPERATION_STATUSES)),
  /** On a ramp's operations: the liquidity provider that runs the step. */
  provider: z.optional(z.string()),
});
export type Operation = z.infer<typeof Operation>;

/** One status a transaction has held and when it got there (the sandbox's `statusHistory`). */
const StatusHistoryEntry = z.looseObject({
  status: lenientEnum(TRANSACTION_STATUSES),
  at: z.string(),
});
type StatusHistoryEntry = z.infer<typeof StatusHistoryEntry>;

/** A replacement (endpoint 6) of the transaction it is listed on. */
const ReplacementLink = z.looseObject({
  id: z.string(),
  status: z.optional(lenientEnum(TRANSACTION_STATUSES)),
  createdAt: z.optional(z.string()),
});
type ReplacementLink = z.infer<typeof ReplacementLink>;

export const Transaction = z.looseObject({
  id: z.optional(z.string()),
  orgId: z.optional(z.string()),
  subOrgId: z.optional(z.string()),
  vaultId: z.optional(z.string()),
  status: z.optional(lenientEnum(TRANSACTION_STATUSES)),
  transactionType: z.optional(lenientEnum(TRANSACTION_TYPES)),
  category: z.optional(lenientEnum(TRANSACTION_CATEGORIES)),
  subCategory: z.optional(lenientEnum(TRANSACTION_SUB_CATEGORIES)),
  createdAt: z.optional(z.string()),
  updatedAt: z.optional(z.string()),
  isDeleted: z.optional(z.boolean()),
  externalId: z.optional(z.nullable(z.string())),
  memo: z.optional(z.nullable(z.string())),
  source: z.optional(Party),
  destination: z.optional(Party),
  blockChain: z.optional(z.string()),
  asset: z.optional(z.string()),
  amount: z.optional(z.string()),
  amountInUSD: z.optional(z.string()),
  txHash: z.optional(z.string()),
  operations: z.optional(z.array(Operation)),
  balanceChanges: z.optional(BalanceChanges),
  nonce: z.optional(z.int()),
  error: z.optional(z.string()),
  createdById: z.optional(z.string()),
  fees: z.optional(TransactionFees),
  // Beyond the description, on a single transaction from the sandbox: its
  // timeline, its fee tier, and the replacement links both ways.
  statusHistory: z.optional(z.array(StatusHistoryEntry)),
  gasParams: z.optional(z.looseObject({ feeTier: z.optional(lenientEnum(FEE_TIERS)) })),
  replacesTransactionId: z.optional(z.string()),
  /** A contract call's data as it was sent (`callData`, `toAddress`, …), on the sandbox's answers. */
  data: z.optional(z.record(z.string(), z.unknown())),
  replacements: z.optional(z.array(ReplacementLink)),
  /**
   * The sandbox's, on a transaction on the chain (SUBMITTED or
   * WAITING_CONFIRMATION): when it passes its chain and fee tier's usual time
   * to complete, and whether it had when this answer was made.
   */
  slowAfter: z.optional(z.string()),
  slowerThanUsual: z.optional(z.boolean()),
  // A ramp or FX (ramp-record.ts): what was asked, the quote it was made from, and for an
  // on-ramp or FX, once approved, where to send the money.
  intent: z.optional(RampIntent),
  quoteResponse: z.optional(RampQuote),
  /** The sandbox's: each time the quote was priced again, oldest first; the last one's quote is `quoteResponse`. */
  requotes: z.optional(z.array(RampRequote)),
  /**
   * The sandbox's: the quote a person last accepted (the initiator's, until an
   * approver accepts a newer one). A re-quote is judged against its rate.
   */
  acceptedQuote: z.optional(
    z.looseObject({
      quoteId: z.string(),
      rate: z.optional(z.string()),
      finalToAmount: z.optional(z.string()),
    }),
  ),
  depositInstructions: z.optional(DepositInstructions),
  /**
   * A raw signing's signature once signed: `r ‖ s ‖ v` in hex (v 27 or 28), and
   * its parts as the SDKs' relaying examples read them (r and s as decimal integers).
   */
  txnSignature: z.optional(z.string()),
  /** A scheduled transfer's time: not signed before it (the JS SDK's `executeAt`). */
  executeAt: z.optional(z.string()),
  txnSignatureData: z.optional(
    z.looseObject({ r: z.optional(z.string()), s: z.optional(z.string()), v: z.optional(z.int()) }),
  ),
  // A swap (trades.ts): the target leg, and the quote request and the answer it was made from.
  toAsset: z.optional(z.string()),
  toBlockChain: z.optional(z.string()),
  finalToAmount: z.optional(z.string()),
  tradeRequestData: z.optional(TradeRequestRecord),
  tradeResponseData: z.optional(TradeResponseRecord),
});
export type Transaction = z.infer<typeof Transaction>;

export const TransactionListResponse = listEnvelope(Transaction);
export type TransactionListResponse = z.infer<typeof TransactionListResponse>;

export const FeeData = z.looseObject({
  expectedFeeInAsset: z.string(),
  asset: z.string(),
  expectedFeeInUSD: z.string(),
  baseFee: z.optional(z.string()),
  priorityFee: z.optional(z.string()),
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
  status: z.optional(TransactionStatus),
  category: z.optional(TransactionCategory),
  vaultId: z.optional(z.string().check(z.minLength(1))),
  asset: z.optional(z.string().check(z.minLength(1))),
  externalId: z.optional(z.string().check(z.minLength(1))),
  subOrgId: z.optional(z.string().check(z.minLength(1))),
  createdAtGte: z.optional(IsoTimestamp),
  createdAtLte: z.optional(IsoTimestamp),
});
export type TransactionFilters = z.infer<typeof TransactionFilters>;
