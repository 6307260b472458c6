import { createHash } from 'node:crypto';
import { add, cmp, div, mul, round, sub } from '#contract/decimal.ts';
import type { RampKind } from '#contract/ramp-record.ts';

/**
 * The sandbox's ramp and FX prices (docs/ramps.md): a reference
 * table of US-dollar values, a small drift that is the same for everyone in
 * the same minute, and three simulated liquidity providers that differ in
 * spread, fee and speed. Every amount goes through the decimal module.
 */

/** Fiat currencies the sandbox's providers pay out and take in, with their reference value in USD. */
export const FIAT_USD: Readonly<Record<string, string>> = { USD: '1', EUR: '1.08', GBP: '1.27' };

/** Digital assets the providers buy and sell (on every chain the sandbox lists them on), in USD. */
export const CRYPTO_USD: Readonly<Record<string, string>> = { USDC: '1', USDT: '1' };

export const isFiat = (asset: string): boolean => asset in FIAT_USD;
export const isRampCrypto = (asset: string): boolean => asset in CRYPTO_USD;

/** Decimal places an amount of the asset is written to: cents for fiat, the token's 6 for stablecoins. */
export function placesOf(asset: string): number {
  return isFiat(asset) ? 2 : 6;
}

export interface Provider {
  name: string;
  /** Taken off the reference rate, as a fraction ("0.001" = 0.1%). */
  spread: string;
  /** Fee as a fraction of the amount priced, at least `minFee`, in the `from` asset. */
  feeRate: string;
  minFee: string;
  /** From approval (or the deposit) to the money arriving, in seconds. */
  completionSeconds: number;
}

export const PROVIDERS: readonly Provider[] = [
  {
    name: 'Northwind Ramp',
    spread: '0.0005',
    feeRate: '0.005',
    minFee: '1.00',
    completionSeconds: 300,
  },
  {
    name: 'Meridian Pay',
    spread: '0.001',
    feeRate: '0.002',
    minFee: '2.50',
    completionSeconds: 900,
  },
  { name: 'Harbor FX', spread: '0.003', feeRate: '0.001', minFee: '5.00', completionSeconds: 3600 },
];

/** Smallest and largest `from` amount a pair takes, in the `from` asset. */
export interface Limits {
  min: string;
  max: string;
}

/**
 * Per pair: off-ramps by the currency paid out, on-ramps by the currency
 * paid in, FX by the pair (each in the currency paid in).
 */
const OFF_RAMP_LIMITS: Readonly<Record<string, Limits>> = {
  USD: { min: '10', max: '1000000' },
  EUR: { min: '10', max: '500000' },
  GBP: { min: '10', max: '250000' },
};
const ON_RAMP_LIMITS: Readonly<Record<string, Limits>> = {
  USD: { min: '20', max: '500000' },
  EUR: { min: '20', max: '250000' },
  GBP: { min: '20', max: '250000' },
};
const FX_LIMITS: Readonly<Record<string, Limits>> = {
  'USD/EUR': { min: '100', max: '1000000' },
  'USD/GBP': { min: '100', max: '1000000' },
  'EUR/USD': { min: '100', max: '900000' },
  'EUR/GBP': { min: '100', max: '900000' },
  'GBP/USD': { min: '100', max: '750000' },
  'GBP/EUR': { min: '100', max: '750000' },
};
/** A pair the tables above do not name (none is served): the narrowest bounds. */
const FALLBACK_LIMITS: Limits = { min: '100', max: '250000' };

export function limitsFor(kind: RampKind, fromAsset: string, toAsset: string): Limits {
  if (kind === 'OFF_RAMP') return OFF_RAMP_LIMITS[toAsset] ?? FALLBACK_LIMITS;
  if (kind === 'ON_RAMP') return ON_RAMP_LIMITS[fromAsset] ?? FALLBACK_LIMITS;
  return FX_LIMITS[`${fromAsset}/${toAsset}`] ?? FALLBACK_LIMITS;
}

/** The drift's bucket: one minute. Two quotes in the same minute see the same market. */
const DRIFT_BUCKET_MS = 60_000;

/**
 * A deterministic drift of at most ±0.10% for the pair in this minute: from
 * a hash of the pair and the minute, so a test (or two servers) asking at the
 * same time get the same rate.
 */
export function driftFor(fromAsset: string, toAsset: string, at: Date): string {
  const bucket = Math.floor(at.getTime() / DRIFT_BUCKET_MS);
  const digest = createHash('sha256').update(`${fromAsset}/${toAsset}/${bucket}`).digest();
  const steps = (digest.readUInt16BE(0) % 201) - 100; // −100 … 100
  return div(String(steps), '100000', 5); // ±0.00100
}

/** `to` per `from` at the reference table, with the minute's drift, before any provider's spread. */
export function referenceRate(fromAsset: string, toAsset: string, at: Date): string {
  const from = FIAT_USD[fromAsset] ?? CRYPTO_USD[fromAsset] ?? '0';
  const to = FIAT_USD[toAsset] ?? CRYPTO_USD[toAsset] ?? '0';
  const mid = div(from, to, 10);
  return round(mul(mid, add('1', driftFor(fromAsset, toAsset, at))), 8, 'down');
}

export interface Priced {
  provider: Provider;
  rate: string;
  fee: string;
  finalFromAmount: string;
  finalToAmount: string;
}

/**
 * One provider's price for an amount given on either side. The fee is in the
 * `from` asset and inside `finalFromAmount`: given `fromAmount`, the fee
 * comes off it and the rest is traded; given `toAmount`, what must be
 * traded for it is found and the fee added on top. `finalToAmount` is
 * rounded down and `finalFromAmount` up, to each asset's places: never in
 * the client's favour by a fraction of a cent, never against it by more.
 */
export function price(
  provider: Provider,
  pair: { fromAsset: string; toAsset: string; reference: string },
  amount: { fromAmount?: string | undefined; toAmount?: string | undefined },
): Priced | null {
  const priced = priceExact(provider, pair, amount);
  if (!priced) return null;
  // Answered in canonical form ("100", not "100.000000"), as every amount of the API is.
  const canonical = (v: string) => add(v, '0');
  return {
    ...priced,
    rate: canonical(priced.rate),
    fee: canonical(priced.fee),
    finalFromAmount: canonical(priced.finalFromAmount),
    finalToAmount: canonical(priced.finalToAmount),
  };
}

function priceExact(
  provider: Provider,
  pair: { fromAsset: string; toAsset: string; reference: string },
  amount: { fromAmount?: string | undefined; toAmount?: string | undefined },
): Priced | null {
  const fromPlaces = placesOf(pair.fromAsset);
  const toPlaces = placesOf(pair.toAsset);
  const rate = round(mul(pair.reference, sub('1', provider.spread)), 8, 'down');
  const feeOn = (base: string) => {
    const proportional = round(mul(base, provider.feeRate), fromPlaces, 'up');
    return cmp(proportional, provider.minFee) < 0
      ? round(provider.minFee, fromPlaces)
      : proportional;
  };
  if (amount.fromAmount !== undefined) {
    const fee = feeOn(amount.fromAmount);
    const traded = sub(amount.fromAmount, fee);
    if (cmp(traded, '0') <= 0) return null;
    const finalToAmount = round(mul(traded, rate), toPlaces, 'down');
    if (cmp(finalToAmount, '0') <= 0) return null;
    return {
      provider,
      rate,
      fee,
      finalFromAmount: amount.fromAmount,
      finalToAmount,
    };
  }
  const toAmount = amount.toAmount ?? '0';
  const traded = div(toAmount, rate, fromPlaces, 'up');
  const fee = feeOn(traded);
  return {
    provider,
    rate,
    fee,
    finalFromAmount: add(traded, fee),
    finalToAmount: round(toAmount, toPlaces, 'down'),
  };
}

/** How long a quote may be executed: long enough to review it, short enough to show a countdown. */
export const QUOTE_LIFETIME_MS = 60_000;
