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
