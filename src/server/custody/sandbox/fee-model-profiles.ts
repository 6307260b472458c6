import type { FeeTier } from '#contract/enums.ts';

/**
 * The sandbox's invented but plausible fee market, one profile per chain of
 * src/contract/chains.ts. Prices are integers in the native asset's smallest
 * unit (wei, satoshi, lamport, sun, e8s) or a fixed fraction of it, so that
 * every fee is computed exactly with BigInt and only then written as a
 * decimal string.
 */
export interface ChainFeeProfile {
  /** Seconds per block on the real chain; the lifecycle's delays derive from it. */
  blockTimeSeconds: number;
  /** Blocks after inclusion before the sandbox calls a transfer COMPLETED. */
  confirmations: number;
  /**
   * Fee units a transfer consumes: gas on EVM chains, virtual bytes on
   * Bitcoin, transactions on Solana and ICP, bandwidth-equivalent bytes on
   * Tron. A token (non-native asset) transfer costs more.
   */
  units: { native: bigint; token: bigint };
  /** Prices below are in 10^-priceExtraDecimals smallest units (Bitcoin: millisatoshi per vbyte). */
  priceExtraDecimals: number;
  /** Market base price per unit (the EIP-1559 base fee on EVM chains). */
  basePrice: bigint;
  /** Per-tier price per unit on top of the base (the EIP-1559 priority fee); strictly increasing. */
  tierPrice: Record<FeeTier, bigint>;
  /** A fee per transaction no market moves: Solana's signature fee, ICP's ledger fee. */
  fixedFee: bigint;
  /** Largest random deviation of the market prices from one 30 s window to the next, in percent. */
  jitterPercent: number;
  /**
   * Congestion recurs: minutes [offset, offset + congested) of every
   * `periodMinutes`-long cycle of wall-clock time, during which market prices
   * are multiplied by `surgePercent` / 100 and slow tiers wait for inclusion.
   */
  congestion: {
    periodMinutes: number;
    congestedMinutes: number;
    offsetMinutes: number;
    surgePercent: number;
  };
}

const GWEI = 1_000_000_000n;

const evmUnits = { native: 21_000n, token: 65_000n };

/** Never congested: a cycle with no congested minutes and no surge. */
const NEVER_CONGESTED: ChainFeeProfile['congestion'] = {
  periodMinutes: 60,
  congestedMinutes: 0,
  offsetMinutes: 0,
  surgePercent: 100,
};

export const CHAIN_FEE_PROFILES: Readonly<Record<string, ChainFeeProfile>> = {
  ETHEREUM: {
    blockTimeSeconds: 12,
    confirmations: 12,
    units: evmUnits,
    priceExtraDecimals: 0,
    basePrice: 15n * GWEI,
    tierPrice: { LOW: GWEI / 10n, MEDIUM: GWEI, HIGH: (5n * GWEI) / 2n },
    fixedFee: 0n,
    jitterPercent: 8,
    congestion: { periodMinutes: 60, congestedMinutes: 15, offsetMinutes: 0, surgePercent: 300 },
  },
  POLYGON: {
    blockTimeSeconds: 2,
    confirmations: 64,
    units: evmUnits,
    priceExtraDecimals: 0,
    basePrice: 40n * GWEI,
    tierPrice: { LOW: 25n * GWEI, MEDIUM: 32n * GWEI, HIGH: 45n * GWEI },
    fixedFee: 0n,
    jitterPercent: 10,
    congestion: { periodMinutes: 30, congestedMinutes: 5, offsetMinutes: 10, surgePercent: 250 },
  },
  BASE: {
    blockTimeSeconds: 2,
    confirmations: 10,
    units: evmUnits,
    priceExtraDecimals: 0,
    basePrice: GWEI / 100n,
    tierPrice: { LOW: GWEI / 1000n, MEDIUM: GWEI / 200n, HIGH: GWEI / 50n },
    fixedFee: 0n,
    jitterPercent: 10,
    congestion: { periodMinutes: 60, congestedMinutes: 10, offsetMinutes: 30, surgePercent: 500 },
  },
  BITCOIN: {
    blockTimeSeconds: 600,
    confirmations: 3,
    // A one-input, two-output P2WPKH spend; Bitcoin has no tokens.
    units: { native: 141n, token: 141n },
    priceExtraDecimals: 3,
    basePrice: 1_000n,
    tierPrice: { LOW: 1_000n, MEDIUM: 4_000n, HIGH: 10_000n },
    fixedFee: 0n,
    jitterPercent: 15,
    congestion: { periodMinutes: 120, congestedMinutes: 40, offsetMinutes: 45, surgePercent: 400 },
  },
  SOLANA: {
    blockTimeSeconds: 0.4,
    confirmations: 32,
    units: { native: 1n, token: 1n },
    priceExtraDecimals: 0,
    basePrice: 0n,
    // Priority fees in lamports; the 5,000-lamport signature fee is fixed.
    tierPrice: { LOW: 1_000n, MEDIUM: 20_000n, HIGH: 100_000n },
    fixedFee: 5_000n,
    jitterPercent: 10,
    congestion: { periodMinutes: 45, congestedMinutes: 10, offsetMinutes: 20, surgePercent: 500 },
  },
  TRON: {
    blockTimeSeconds: 3,
    confirmations: 19,
    // A TRC-20 transfer burns ~65,000 energy, worth about 14,000 bandwidth bytes of TRX.
    units: { native: 270n, token: 14_000n },
    priceExtraDecimals: 0,
    basePrice: 1_000n,
    tierPrice: { LOW: 0n, MEDIUM: 20n, HIGH: 50n },
    fixedFee: 0n,
    jitterPercent: 2,
    congestion: NEVER_CONGESTED,
  },
  ICP: {
    blockTimeSeconds: 2,
    confirmations: 1,
    units: { native: 1n, token: 1n },
    priceExtraDecimals: 0,
    basePrice: 0n,
    // ICP has one ledger fee (0.0001 ICP); the small tier surcharge exists only
    // so that the three tiers differ, as the API's estimate promises.
    tierPrice: { LOW: 0n, MEDIUM: 500n, HIGH: 1_000n },
    fixedFee: 10_000n,
    jitterPercent: 0,
    congestion: NEVER_CONGESTED,
  },
};

/**
 * Each native asset's decimals and the fixed USD price the sandbox converts
 * fees with. Invented round figures: the sandbox must not call a price feed.
 */
export const SANDBOX_NATIVE_ASSETS: Readonly<
  Record<string, { decimals: number; usdPrice: string }>
> = {
  ETH: { decimals: 18, usdPrice: '3000' },
  POL: { decimals: 18, usdPrice: '0.4' },
  BTC: { decimals: 8, usdPrice: '60000' },
  SOL: { decimals: 9, usdPrice: '150' },
  TRX: { decimals: 6, usdPrice: '0.12' },
  ICP: { decimals: 8, usdPrice: '10' },
};
