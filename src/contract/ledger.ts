import * as z from 'zod/mini';
import { LEDGER_HISTORY_DAYS } from './ledger-history-days.ts';

/**
 * The treasury ledger: every change to a vault's balance as one append-only
 * movement, the balance history built from them, and statements that
 * reconcile. Amounts are decimal strings, signed: a debit is negative.
 *
 * - AMOUNT: value moved by a transfer, ramp, swap or deposit.
 * - FEE: a network or provider fee, a movement of its own (always a debit).
 * - REWARD: staking income.
 * - ADJUSTMENT: a balance the ledger did not see arrive (a vault's opening
 *   balance), or a late arrival for a closed period.
 */
export const LEDGER_MOVEMENT_KINDS = ['AMOUNT', 'FEE', 'REWARD', 'ADJUSTMENT'] as const;
export const LedgerMovementKind = z.enum(LEDGER_MOVEMENT_KINDS);
export type LedgerMovementKind = z.infer<typeof LedgerMovementKind>;

const Id = z.string().check(z.minLength(1));
const Decimal = z.string();

export { LEDGER_HISTORY_DAYS };

const DAYS_MESSAGE = `days must be one of ${LEDGER_HISTORY_DAYS.join(', ')}`;

/**
 * GET /api/console/ledger/history/: a vault's (`vaultId`), a
 * sub-organization's (`subOrgId`) or, with neither, the organization's
 * balances over the last `days` days.
 */
export const LedgerHistoryQuery = z.object({
  days: z.enum(LEDGER_HISTORY_DAYS, DAYS_MESSAGE),
  vaultId: z.optional(Id),
  subOrgId: z.optional(Id),
});
export type LedgerHistoryQuery = z.infer<typeof LedgerHistoryQuery>;

/**
 * One asset on one chain, day by day: `units[i]` and `usd[i]` are the
 * closing balance of day `from + i` in units and in USD at that day's price
 * (the price of its last movement up to then). Compact on the wire: `null`
 * means "as the day before", so a quiet year is mostly nulls.
 */
export const LedgerHistorySeries = z.object({
  asset: z.string(),
  chain: z.string(),
  units: z.array(z.nullable(Decimal)),
  usd: z.array(z.nullable(Decimal)),
});
export type LedgerHistorySeries = z.infer<typeof LedgerHistorySeries>;

/**
 * What moved each day, in USD at each movement's price, to the cent, summed
 * over every asset (units of different assets do not add up): value in and
 * out (transfers, deposits, ramp and swap legs; out as a positive figure),
 * fees paid and staking rewards earned. `null` means nothing that day. An
 * opening balance is not a flow.
 */
export const LedgerHistoryFlows = z.object({
  inUsd: z.array(z.nullable(Decimal)),
  outUsd: z.array(z.nullable(Decimal)),
  feesUsd: z.array(z.nullable(Decimal)),
  rewardsUsd: z.array(z.nullable(Decimal)),
});
export type LedgerHistoryFlows = z.infer<typeof LedgerHistoryFlows>;

/**
 * Present when the console rebuilt the ledger from a custody API's
 * transactions and balances (upstream mode) rather than recording it as
 * balances moved: nothing before `knownFrom` is known (the opening balance
 * is booked then, worked back from the first balances read), the figures
 * are as read at `syncedAt`, and USD is at the price the custody API stated
 * when it was read, not at each movement's time.
 */
export const LedgerReconstruction = z.object({
  knownFrom: z.string(),
  syncedAt: z.string(),
});
export type LedgerReconstruction = z.infer<typeof LedgerReconstruction>;

export const LedgerHistoryResponse = z.object({
  /** The first day (YYYY-MM-DD, UTC); the last is today. */
  from: z.string(),
  days: z.int(),
  /** Summed over the vaults asked for (one vault, a sub-organization's, or the organization's). */
  series: z.array(LedgerHistorySeries),
  /** Day by day, as `series`. */
  flows: LedgerHistoryFlows,
  reconstructed: z.optional(LedgerReconstruction),
});
export type LedgerHistoryResponse = z.infer<typeof LedgerHistoryResponse>;

const STATEMENT_TIME_MESSAGE =
  'must be an ISO 8601 time with its offset, such as 2026-10-01T00:00:00Z';

/**
 * GET /api/console/ledger/statement/: a vault's or a sub-organization's
 * movements in [from, to), oldest first, paged; the page's zone is the
 * caller's (a month in the member's zone is sent as its two instants).
 */
/**
 * How a statement is answered: `json` one page at a time; `csv` (a
 * spreadsheet's file) and `html` (a page to print or save as PDF from the
 * browser) every line of the period at once, times in the member's zone.
 */
export const LEDGER_STATEMENT_FORMATS = ['json', 'csv', 'html'] as const;

export const LedgerStatementQuery = z.object({
  vaultId: z.optional(Id),
  subOrgId: z.optional(Id),
  from: z.iso.datetime({ offset: true, error: `from ${STATEMENT_TIME_MESSAGE}` }),
  to: z.iso.datetime({ offset: true, error: `to ${STATEMENT_TIME_MESSAGE}` }),
  format: z.optional(
    z.enum(
      LEDGER_STATEMENT_FORMATS,
      `format must be one of ${LEDGER_STATEMENT_FORMATS.join(', ')}`,
    ),
  ),
});
export type LedgerStatementQuery = z.infer<typeof LedgerStatementQuery>;

/**
 * One line of a statement: one movement. `amount` is what moved other than
 * a fee (signed: negative out), `fee` a fee paid (positive, on a FEE line),
 * so per asset: opening + Σ amount − Σ fee = closing. `balanceAfter` is the
 * balance of the vault's asset right after it.
 */
export const LedgerStatementLine = z.object({
  id: z.string(),
  at: z.string(),
  vaultId: z.string(),
  asset: z.string(),
  chain: z.string(),
  kind: LedgerMovementKind,
  amount: Decimal,
  fee: Decimal,
  usdPrice: Decimal,
  /** The movement in USD at its time (amount − fee, at `usdPrice`, to the cent). */
  usdValue: Decimal,
  balanceAfter: Decimal,
  counterparty: z.nullable(z.string()),
  reference: z.nullable(z.string()),
  memo: z.nullable(z.string()),
  transactionId: z.nullable(z.string()),
  /**
   * When it happened, for a movement that arrived after its period was
   * closed: booked at `at`, the start of the next open period, as an
   * adjustment to it. Null for a movement booked when it happened.
   */
  valueAt: z.nullable(z.string()),
});
export type LedgerStatementLine = z.infer<typeof LedgerStatementLine>;

/** Per asset over the whole period (every page carries it): opening + amounts − fees = closing. */
export const LedgerStatementTotals = z.object({
  asset: z.string(),
  chain: z.string(),
  opening: Decimal,
  amounts: Decimal,
  fees: Decimal,
  closing: Decimal,
});
export type LedgerStatementTotals = z.infer<typeof LedgerStatementTotals>;

export const LedgerStatementResponse = z.object({
  from: z.string(),
  to: z.string(),
  totals: z.array(LedgerStatementTotals),
  results: z.array(LedgerStatementLine),
  nextCursor: z.nullable(z.string()),
  hasNext: z.boolean(),
  reconstructed: z.optional(LedgerReconstruction),
});
export type LedgerStatementResponse = z.infer<typeof LedgerStatementResponse>;
