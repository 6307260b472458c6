import { createHash } from 'node:crypto';
import { chainInfo, type ChainInfo } from '#contract/chains.ts';
import { add, cmp, isNegative, mul, round } from '#contract/decimal.ts';
import type { FeeTier } from '#contract/enums.ts';
import type { EstimatedFeeResponse, FeeData } from '#contract/transaction.ts';
import type { SurgeInForce } from './fee-surges.ts';
import {
  CHAIN_FEE_PROFILES,
  SANDBOX_NATIVE_ASSETS,
  type ChainFeeProfile,
} from './fee-model-profiles.ts';

/**
 * The sandbox's fee estimation and chain timing: pure functions of the chain,
 * the asset and a clock. Fees are computed in the native
 * asset's smallest unit with BigInt and written as decimal strings; decimal
 * strings are compared and scaled only through src/contract/decimal.ts.
 */

/** An estimate depends on floor(now / window): two calls in one window agree. */
export const ESTIMATE_WINDOW_MS = 30_000;
/** A replacement must pay at least this multiple of the original fee. */
const REPLACEMENT_FEE_FACTOR = '1.1';
const WEI_DECIMALS = 18;
const GWEI_DECIMALS = 9;
const USD_DECIMALS = 6;
const PPM = 1_000_000n;

export { CHAIN_FEE_PROFILES, SANDBOX_NATIVE_ASSETS } from './fee-model-profiles.ts';

interface ChainModel {
  info: ChainInfo;
  profile: ChainFeeProfile;
  decimals: number;
  usdPrice: string;
}

function chainModel(blockChain: string): ChainModel {
  const info = chainInfo(blockChain);
  const profile = CHAIN_FEE_PROFILES[blockChain];
  const native = info && SANDBOX_NATIVE_ASSETS[info.nativeAsset];
  if (!info || !profile || !native)
    throw new RangeError(`the sandbox has no fee model for blockChain ${blockChain}`);
  return { info, profile, decimals: native.decimals, usdPrice: native.usdPrice };
}

export interface EstimateFeesInput {
  blockChain: string;
  /** The asset transferred: the native asset costs less gas than a token. */
  asset: string;
  /** Accepted for the API's shape; no sandbox chain prices a transfer by its amount. */
  amount: string;
  now: Date;
  /**
   * A multiplier of the market's price set by hand for this item's
   * sub-organization (fee-surges.ts): of the calm market when steady; none,
   * the market alone.
   */
  surge?: SurgeInForce | undefined;
}

/**
 * High, medium and low fees for a transfer, strictly ordered, in the native
 * asset and USD. On EIP-1559 chains `baseFee` and `priorityFee` are per gas in
 * gwei, with (baseFee + priorityFee) × gas limit = expectedFeeInAsset exactly;
 * every tier shares the block's base fee and differs by its priority fee.
 *
 * @throws RangeError for a chain outside src/contract/chains.ts.
 */
export function estimateFees(input: EstimateFeesInput): EstimatedFeeResponse {
  const { info, profile, decimals, usdPrice } = chainModel(input.blockChain);
  const market = input.surge?.steady
    ? surged(PPM, input.surge.factor)
    : surged(marketFactorPpm(input.blockChain, profile, input.now), input.surge?.factor);
  const units = input.asset === info.nativeAsset ? profile.units.native : profile.units.token;
  const basePrice = scaled(profile.basePrice, market);
  const tier = (feeTier: FeeTier): FeeData => {
    const tierPrice = scaled(profile.tierPrice[feeTier], market);
    const smallest =
      profile.fixedFee +
      ceilDiv(units * (basePrice + tierPrice), 10n ** BigInt(profile.priceExtraDecimals));
    const expectedFeeInAsset = formatUnits(smallest, decimals);
    const fee: FeeData = {
      expectedFeeInAsset,
      asset: info.nativeAsset,
      expectedFeeInUSD: usdValue(expectedFeeInAsset, usdPrice),
    };
    if (info.eip1559) {
      fee.baseFee = formatUnits(basePrice, GWEI_DECIMALS);
      fee.priorityFee = formatUnits(tierPrice, GWEI_DECIMALS);
    }
    return fee;
  };
  return { high: tier('HIGH'), medium: tier('MEDIUM'), low: tier('LOW') };
}

export function feeForTier(estimate: EstimatedFeeResponse, tier: FeeTier): FeeData {
  switch (tier) {
    case 'HIGH':
      return estimate.high;
    case 'MEDIUM':
      return estimate.medium;
    case 'LOW':
      return estimate.low;
  }
}

/**
 * The market's price multiplier in parts per million: a jitter drawn from a
 * hash of the chain and the 30 s window, times the surge while congested.
 * Hashing instead of Math.random keeps the model a pure function of `now`.
 */
function marketFactorPpm(blockChain: string, profile: ChainFeeProfile, now: Date): bigint {
  const window = Math.floor(now.getTime() / ESTIMATE_WINDOW_MS);
  const spread = BigInt(profile.jitterPercent) * 10_000n;
  const draw = BigInt(
    createHash('sha256').update(`${blockChain}:${window}`).digest().readUInt32BE(0),
  );
  const jitter = PPM - spread + (draw % (2n * spread + 1n));
  const surge = isCongested(blockChain, now) ? BigInt(profile.congestion.surgePercent) : 100n;
  return (jitter * surge) / 100n;
}

/** The market's factor times a surge set by hand, in parts per million, rounded up. */
function surged(factorPpm: bigint, surge: string | undefined): bigint {
  if (surge === undefined) return factorPpm;
  const ppm = BigInt(round(mul(factorPpm.toString(), surge), 0, 'up'));
  return ppm > 0n ? ppm : 1n;
}

function scaled(price: bigint, factorPpm: bigint): bigint {
  return (price * factorPpm) / PPM;
}

// --- Congestion ----------------------------------------------------------------

// Congestion changes on whole minutes, a multiple of the estimate window, so
// it is constant within a window.
function congestionPhase(profile: ChainFeeProfile, now: Date): number {
  const { periodMinutes, offsetMinutes } = profile.congestion;
  const minute = Math.floor(now.getTime() / 60_000);
  return (((minute - offsetMinutes) % periodMinutes) + periodMinutes) % periodMinutes;
}

export function isCongested(blockChain: string, now: Date): boolean {
  const profile = CHAIN_FEE_PROFILES[blockChain];
  return (
    profile !== undefined && congestionPhase(profile, now) < profile.congestion.congestedMinutes
  );
}

/** The first moment at or after `from` when the chain is congested; undefined for a chain that never is. */
export function nextCongestedAt(blockChain: string, from: Date): Date | undefined {
  const profile = CHAIN_FEE_PROFILES[blockChain];
  if (!profile || profile.congestion.congestedMinutes === 0) return undefined;
  if (isCongested(blockChain, from)) return from;
  const minute = Math.floor(from.getTime() / 60_000);
  return new Date(
    (minute + profile.congestion.periodMinutes - congestionPhase(profile, from)) * 60_000,
  );
}

// --- Lifecycle timing ------------------------------------------------------------

/** How long a transaction stays in each status before the simulator moves it on. */
export interface LifecycleDelaysMs {
  APPROVED: number;
  SIGNED: number;
  SUBMITTED: number;
  WAITING_CONFIRMATION: number;
}

const SIGNING_SECONDS = 2;
const BROADCAST_SECONDS = 1;
const INCLUSION_BLOCKS: Record<FeeTier, number> = { HIGH: 1, MEDIUM: 2, LOW: 3 };
const CONGESTED_INCLUSION_BLOCKS: Record<Exclude<FeeTier, 'LOW'>, number> = { HIGH: 2, MEDIUM: 4 };
/**
 * A LOW fee on a congested chain waits an hour of chain time and at least 20
 * blocks: at SANDBOX_TIME_SCALE 60 that is a minute or more in SUBMITTED, time
 * enough for a person to try a replacement.
 */
const STUCK_SECONDS = 3600;
const STUCK_MIN_BLOCKS = 20;

/**
 * Delays of APPROVED → SIGNED → SUBMITTED → WAITING_CONFIRMATION → COMPLETED,
 * in real chain seconds divided by `timeScale` (60 = sixty times faster).
 * Congestion is judged at `now`, the moment the delays are computed.
 */
export function confirmationDelaysMs(
  blockChain: string,
  tier: FeeTier,
  timeScale: number,
  now: Date,
): LifecycleDelaysMs {
  if (!Number.isFinite(timeScale) || timeScale <= 0)
    throw new RangeError(`timeScale must be a positive number, got ${timeScale}`);
  const { profile } = chainModel(blockChain);
  const blockTime = profile.blockTimeSeconds;
  const inclusionBlocks = !isCongested(blockChain, now)
    ? INCLUSION_BLOCKS[tier]
    : tier === 'LOW'
      ? Math.max(STUCK_MIN_BLOCKS, Math.ceil(STUCK_SECONDS / blockTime))
      : CONGESTED_INCLUSION_BLOCKS[tier];
  const ms = (seconds: number) => Math.ceil((seconds * 1000) / timeScale);
  return {
    APPROVED: ms(SIGNING_SECONDS),
    SIGNED: ms(BROADCAST_SECONDS),
    SUBMITTED: ms(inclusionBlocks * blockTime),
    WAITING_CONFIRMATION: ms(profile.confirmations * blockTime),
  };
}

// --- Slower than usual -----------------------------------------------------------

/** The statuses a transaction waits on the chain in: after submission, before an end. */
export type OnChainStatus = 'SUBMITTED' | 'WAITING_CONFIRMATION';

/**
 * How long the simulator takes, on a calm chain at this tier, from entering
 * `status` to COMPLETED: inclusion (SUBMITTED only) and confirmations, in
 * chain seconds divided by `timeScale`.
 */
export function usualTimeLeftMs(
  blockChain: string,
  tier: FeeTier,
  status: OnChainStatus,
  timeScale: number,
): number {
  if (!Number.isFinite(timeScale) || timeScale <= 0)
    throw new RangeError(`timeScale must be a positive number, got ${timeScale}`);
  const blockTime = chainModel(blockChain).profile.blockTimeSeconds;
  const blocks =
    chainModel(blockChain).profile.confirmations +
    (status === 'SUBMITTED' ? INCLUSION_BLOCKS[tier] : 0);
  return Math.ceil((blocks * blockTime * 1000) / timeScale);
}

/**
 * Twice the usual time, plus a minute of chain time: congestion at most
 * doubles a MEDIUM or HIGH fee's wait for inclusion, so only a transaction
 * that is really held up (a LOW fee in a congested hour, a stuck broadcast)
 * passes it; the minute keeps fast chains from flagging a step's ordinary lag.
 */
const SLOW_FACTOR = 2;
const SLOW_GRACE_SECONDS = 60;

/**
 * How long after entering `status` a transaction counts as slower than
 * usual for its chain and tier (the console offers a replacement then).
 */
export function slowAfterMs(
  blockChain: string,
  tier: FeeTier,
  status: OnChainStatus,
  timeScale: number,
): number {
  const usual = usualTimeLeftMs(blockChain, tier, status, 1);
  return Math.ceil((usual * SLOW_FACTOR + SLOW_GRACE_SECONDS * 1000) / timeScale);
}

// --- Replacement -----------------------------------------------------------------

/** The least fee a replacement of a transaction that paid `originalFee` may pay. */
export function minimumReplacementFee(originalFee: string): string {
  return mul(originalFee, REPLACEMENT_FEE_FACTOR);
}

/** What a transaction paid the chain: an amount and the asset it is in. */
interface PaidFee {
  amount: string;
  asset: string;
}

/**
 * The fee a replacement pays: the current high tier, or 1.1 × the original
 * when that is more, rounded up to the asset's smallest unit. On EIP-1559
 * chains the bump goes into the priority fee, in whole wei per gas, so that
 * (baseFee + priorityFee) × gas limit still equals the fee: the fee is then a
 * multiple of the gas limit, up to one wei per gas above 1.1 × the original.
 *
 * @throws RangeError when the original fee is not in the asset the chain
 * charges fees in (a provider's fee, say): 1.1 × it would mean nothing.
 */
export function replacementFeeFor(original: PaidFee, estimate: EstimatedFeeResponse): FeeData {
  const high = estimate.high;
  const native = SANDBOX_NATIVE_ASSETS[high.asset];
  if (!native) throw new RangeError(`the sandbox has no fee model for asset ${high.asset}`);
  if (original.asset !== high.asset)
    throw new RangeError(
      `the original fee is in ${original.asset}, but this chain charges fees in ${high.asset}: no replacement fee follows from it`,
    );
  const minimum = minimumReplacementFee(original.amount);
  if (cmp(high.expectedFeeInAsset, minimum) >= 0) return high;
  if (high.baseFee === undefined || high.priorityFee === undefined) {
    const fee = formatUnits(toUnitsRoundingUp(minimum, native.decimals), native.decimals);
    return { ...high, expectedFeeInAsset: fee, expectedFeeInUSD: usdValue(fee, native.usdPrice) };
  }
  const baseWei = toUnitsRoundingUp(high.baseFee, GWEI_DECIMALS);
  const highPriorityWei = toUnitsRoundingUp(high.priorityFee, GWEI_DECIMALS);
  const highFeeWei = toUnitsRoundingUp(high.expectedFeeInAsset, WEI_DECIMALS);
  const gasLimit = highFeeWei / (baseWei + highPriorityWei);
  if (gasLimit * (baseWei + highPriorityWei) !== highFeeWei) {
    throw new RangeError('estimate.high is not (baseFee + priorityFee) × a whole gas limit');
  }
  const priorityWei = ceilDiv(toUnitsRoundingUp(minimum, WEI_DECIMALS), gasLimit) - baseWei;
  const fee = formatUnits((baseWei + priorityWei) * gasLimit, WEI_DECIMALS);
  return {
    ...high,
    expectedFeeInAsset: fee,
    expectedFeeInUSD: usdValue(fee, native.usdPrice),
    priorityFee: formatUnits(priorityWei, GWEI_DECIMALS),
  };
}

// --- Decimal strings ⇄ smallest units -----------------------------------------

function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

/** A non-negative integer count of 10^-decimals units, as a trimmed decimal string. */
function formatUnits(units: bigint, decimals: number): string {
  const digits = units.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** A non-negative decimal string in 10^-decimals units, rounded up. */
function toUnitsRoundingUp(amount: string, decimals: number): bigint {
  if (isNegative(amount)) throw new RangeError(`a fee cannot be negative: ${amount}`);
  const down = round(amount, decimals, 'down');
  const units = BigInt(down.replace('.', ''));
  return cmp(down, amount) < 0 ? units + 1n : units;
}

function usdValue(amount: string, usdPrice: string): string {
  const fixed = round(mul(amount, usdPrice), USD_DECIMALS);
  // Trailing zeros go, as in every other decimal the sandbox writes.
  return add(fixed, '0');
}
