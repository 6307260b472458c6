import * as z from 'zod/mini';
import { TRANSACTION_STATUSES, TransactionStatus, VAULT_TYPES, lenientEnum } from './enums.ts';

/**
 * The console's treasury overview (GET /api/console/overview/) and its
 * vaults valued (GET /api/console/vaults/): what the member's scope holds in
 * USD, where, what waits on them and what moved. Every amount is a decimal
 * string computed with the decimal module; a value in USD is the custody
 * API's `balanceInUSD` (detailed_balances) summed, so the totals are the
 * vaults' balances times the prices that read used. `share` is a percentage
 * of the largest or the whole, to two places, for the charts' bars.
 */

/** Where the prices came from: the sandbox's reference table, or the custody API's valuation. */
export const PRICE_SOURCES = ['SANDBOX_REFERENCE', 'CUSTODY_API'] as const;

/** One asset on one chain in one vault, as valued. */
const Holding = z.object({
  symbol: z.string(),
  chain: z.nullable(z.string()),
  balance: z.string(),
  /** The price in USD of one unit; null when the custody service has none (not in any total). */
  price: z.nullable(z.string()),
  usd: z.nullable(z.string()),
});
export type Holding = z.infer<typeof Holding>;

/** A vault with what it holds, valued. */
export const VaultHolding = z.object({
  id: z.string(),
  name: z.string(),
  vaultType: z.nullable(lenientEnum(VAULT_TYPES)),
  subOrgId: z.nullable(z.string()),
  /** The chains it has a wallet on. */
  chains: z.array(z.string()),
  /** The sum of its priced holdings in USD. */
  usd: z.string(),
  holdings: z.array(Holding),
  /** Its balances could not be read (the custody service refused or failed): not in any total. */
  unread: z.optional(z.boolean()),
});
export type VaultHolding = z.infer<typeof VaultHolding>;

const Valuation = {
  /** When the balances and prices were read (the server's clock). */
  pricedAt: z.string(),
  priceSource: z.enum(PRICE_SOURCES),
  /** Every priced holding of every vault listed, in USD. */
  totalUsd: z.string(),
};

export const VaultHoldingsResponse = z.object({
  ...Valuation,
  vaults: z.array(VaultHolding),
});
export type VaultHoldingsResponse = z.infer<typeof VaultHoldingsResponse>;

/** An asset across the vaults and chains: its units and their value. */
const AssetTotal = z.object({
  symbol: z.string(),
  balance: z.string(),
  usd: z.string(),
  /** Percent of the total in USD. */
  share: z.string(),
});
const ChainTotal = z.object({ chain: z.string(), usd: z.string(), share: z.string() });
const VaultTotal = z.object({
  id: z.string(),
  name: z.string(),
  subOrgId: z.nullable(z.string()),
  usd: z.string(),
  share: z.string(),
});

/** Completed transactions that moved value out of the scope's vaults, or into them. */
const Flow = z.object({
  usd: z.string(),
  count: z.int().check(z.nonnegative()),
  /** Of those, how many the custody service gave no USD value (not in `usd`). */
  unpriced: z.int().check(z.nonnegative()),
});

const DayOutflow = z.object({
  /** The member's calendar day, `YYYY-MM-DD` in `timeZone`. */
  day: z.string(),
  usd: z.string(),
  count: z.int().check(z.nonnegative()),
  /** Percent of the largest day's outflow. */
  share: z.string(),
});

export const OverviewResponse = z.object({
  ...Valuation,
  /** The zone the days of `outflowByDay` are in. */
  timeZone: z.string(),
  byAsset: z.array(AssetTotal),
  byChain: z.array(ChainTotal),
  byVault: z.array(VaultTotal),
  /** Holdings without a price: shown, never valued. */
  unpriced: z.array(
    z.object({ symbol: z.string(), chain: z.nullable(z.string()), balance: z.string() }),
  ),
  /**
   * For members who decide: the approvals inbox's count of what they may
   * decide, and since when the oldest of those has waited; null for others.
   */
  waiting: z.nullable(
    z.object({
      actionableCount: z.int().check(z.nonnegative()),
      totalCount: z.int().check(z.nonnegative()),
      oldestAt: z.nullable(z.string()),
    }),
  ),
  /** Transactions neither completed, failed nor declined, by status. */
  inFlight: z.object({
    count: z.int().check(z.nonnegative()),
    byStatus: z.array(z.object({ status: TransactionStatus, count: z.int() })),
  }),
  /**
   * Transactions on the chain past their fee tier's usual time (the custody
   * service's `slowerThanUsual`): how many, and the latest to become so first.
   */
  slow: z.object({
    count: z.int().check(z.nonnegative()),
    transactions: z.array(
      z.object({
        id: z.string(),
        status: lenientEnum(TRANSACTION_STATUSES),
        category: z.nullable(z.string()),
        amount: z.nullable(z.string()),
        asset: z.nullable(z.string()),
        blockChain: z.nullable(z.string()),
        feeTier: z.nullable(z.string()),
        /** When it passed its usual time. */
        slowAfter: z.string(),
      }),
    ),
  }),
  /** The 24 hours up to `pricedAt`, by when each transaction completed. */
  lastDay: z.object({ from: z.string(), outflow: Flow, inflow: Flow }),
  /** Outflow on each of the last 30 days, oldest first, today included. */
  outflowByDay: z.array(DayOutflow),
  /** Every transaction these figures need was read (false: the newest thousands only). */
  transactionsComplete: z.boolean(),
});
export type OverviewResponse = z.infer<typeof OverviewResponse>;

/** The scope switcher's sub-organization, and the zone the outflow's days are counted in. */
export const OverviewQuery = z.object({
  subOrgId: z.optional(z.string().check(z.minLength(1))),
  timeZone: z.optional(
    z
      .string()
      .check(
        z.maxLength(64, 'timeZone must be an IANA time zone name, such as Europe/Berlin'),
        z.regex(
          /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/,
          'timeZone must be an IANA time zone name, such as Europe/Berlin',
        ),
      ),
  ),
});
export type OverviewQuery = z.infer<typeof OverviewQuery>;

export const VaultHoldingsQuery = z.object({
  subOrgId: z.optional(z.string().check(z.minLength(1))),
});
