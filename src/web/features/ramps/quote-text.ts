import { formatAmount } from '#contract/decimal-format.ts';
import type { RampQuote } from '#contract/ramp-record.ts';
import { paymentMethodLabel } from '../../lib/labels.ts';

/**
 * A quote and a ramp in words: amounts, rate, fee, how long, how long the
 * price holds. Showing only (no big.js, no form rules): the transaction page
 * reads these too (ARCHITECTURE.md, "First load").
 */

/** "12,500.5 USDC", or a dash. */
export const amountOf = (amount: string | undefined, asset: string | undefined) =>
  amount ? `${formatAmount(amount)} ${asset ?? ''}`.trim() : '—';

/** "1 USDC = 0.9985 USD". */
export function describeRate(quote: RampQuote): string {
  if (!quote.rate) return 'not stated';
  return `1 ${quote.fromAsset ?? ''} = ${formatAmount(quote.rate)} ${quote.toAsset ?? ''}`.trim();
}

export function describeFee(quote: RampQuote): string {
  return quote.fees ? `${formatAmount(quote.fees.amount)} ${quote.fees.asset}` : 'none stated';
}

const RAIL_LABELS: Readonly<Record<string, string>> = { ACH: 'ACH', WIRE: 'wire' };

/** A rail in either SDK generation's name ("US_ACH" or "ACH"), in words. */
export function railLabel(rail: string | undefined): string {
  return (rail && RAIL_LABELS[rail]) ?? paymentMethodLabel(rail);
}

/** Whole seconds until the quote expires at `now` (0 once expired); undefined without an expiry. */
export function secondsLeft(quote: Pick<RampQuote, 'expiresAt'>, now: number): number | undefined {
  if (!quote.expiresAt) return undefined;
  const at = Date.parse(quote.expiresAt);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/** Expired at `now`: a quote without a readable expiry is taken as good (the server decides). */
export function isExpired(quote: Pick<RampQuote, 'expiresAt'>, now: number): boolean {
  return secondsLeft(quote, now) === 0;
}

/** Expired now, as a button is pressed: read from the clock, never from the last render. */
export function isExpiredNow(quote: Pick<RampQuote, 'expiresAt'>): boolean {
  return isExpired(quote, Date.now());
}

/** "about 5 min", "about 1 h": how long the provider takes once the money is on its way. */
export function describeWait(seconds: number | undefined): string {
  if (seconds === undefined) return 'not stated';
  if (seconds < 60) return `about ${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min`;
  const hours = Math.round(minutes / 6) / 10;
  return `about ${hours} h`;
}

/** "Expires in 42 s", "Expires in 1 min 5 s", "Expired". */
export function describeExpiry(left: number | undefined): string {
  if (left === undefined) return 'No expiry stated';
  if (left === 0) return 'Expired';
  if (left < 60) return `Expires in ${left} s`;
  const s = left % 60;
  return `Expires in ${Math.floor(left / 60)} min${s ? ` ${s} s` : ''}`;
}

/** "14:03:10 UTC": the clock time a quote holds until, to the second. */
const clockTime = (iso: string) => `${iso.slice(11, 19)} UTC`;

/**
 * What a quote locks and until when, in words: "Rate locked until
 * 14:03:10 UTC (42 s)" while it holds; once expired, on a ramp still to
 * execute, "Quote expired 16 min ago: it will be re-quoted before it
 * executes" (the server prices it again first); on one already under way or
 * ended, only when it expired.
 */
export function describeLock(
  quote: Pick<RampQuote, 'expiresAt'>,
  now: number,
  options: { executes: boolean } = { executes: true },
): string {
  const left = secondsLeft(quote, now);
  if (left === undefined || !quote.expiresAt)
    return 'No lock stated: the rate is set when it executes';
  if (left > 0) return `Rate locked until ${clockTime(quote.expiresAt)} (${left} s)`;
  const ago = Math.max(0, Math.floor((now - Date.parse(quote.expiresAt)) / 1000));
  const since =
    ago < 60
      ? `${ago} s`
      : ago < 3600
        ? `${Math.floor(ago / 60)} min`
        : `${Math.floor(ago / 3600)} h ${Math.floor((ago % 3600) / 60)} min`;
  return options.executes
    ? `Quote expired ${since} ago: it will be re-quoted before it executes`
    : `Quote expired at ${clockTime(quote.expiresAt)}`;
}

/** "4 min": how old a quote is, from when it was priced (its expiry less the 60 s it holds). */
export function describeAge(quote: Pick<RampQuote, 'expiresAt'>, now: number): string | undefined {
  if (!quote.expiresAt) return undefined;
  const priced = Date.parse(quote.expiresAt) - QUOTE_HOLDS_MS;
  if (Number.isNaN(priced)) return undefined;
  const seconds = Math.max(0, Math.floor((now - priced) / 1000));
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min`;
}

/** How long the sandbox's (and the providers') quotes hold: docs/ramps.md. */
const QUOTE_HOLDS_MS = 60_000;
