import * as z from 'zod/mini';

/**
 * The string half of the decimal module (decimal.ts re-exports it): checking
 * and showing a decimal string needs no arithmetic, so pages that only show
 * amounts do not load big.js (ARCHITECTURE.md, "First load").
 */

const UNSIGNED_DECIMAL = /^(0|[1-9]\d*)(\.\d+)?$/;

/**
 * A strictly positive decimal string's checks, for either zod flavour: its
 * form first (and nothing more said when that fails), then zero refused. Read
 * from the digits, so checking an amount needs no arithmetic.
 */
export const positiveDecimalChecks = [
  z.regex(UNSIGNED_DECIMAL, {
    message: 'must be a positive decimal number written as a string, like "12.5"',
    abort: true,
  }),
  z.refine<string>((v) => /[1-9]/.test(v), 'must be greater than zero'),
] as const;

/** positive-decimal.ts's PositiveDecimalString for zod/mini schemas (the contract modules of the first load). */
export const PositiveDecimal = z.string().check(...positiveDecimalChecks);

export const DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;

export function isDecimalString(value: string): boolean {
  return DECIMAL.test(value);
}

/** Number of digits after the decimal point as written ("1.50" → 2). */
export function scale(a: string): number {
  const dot = a.indexOf('.');
  return dot === -1 ? 0 : a.length - dot - 1;
}

/**
 * Groups the integer part with thousands separators and keeps every
 * fractional digit the API sent (trailing zeros trimmed): a treasury user
 * must see the exact amount, not a float approximation.
 */
export function formatAmount(a: string, opts: { minFractionDigits?: number } = {}): string {
  if (!isDecimalString(a)) return a;
  const negative = a.startsWith('-');
  const unsigned = negative ? a.slice(1) : a;
  const [intPart = '0', fracRaw = ''] = unsigned.split('.');
  let frac = fracRaw.replace(/0+$/, '');
  const min = opts.minFractionDigits ?? 0;
  if (frac.length < min) frac = frac.padEnd(min, '0');
  const grouped = intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const body = frac ? `${grouped}.${frac}` : grouped;
  // "-0.00" is shown as zero: a valid decimal is zero when it has no digit 1–9.
  return negative && /[1-9]/.test(a) ? `-${body}` : body;
}

/**
 * `a` rounded half-up to `dp` decimal places, by its digits (no float, no
 * big.js: pages that only show amounts must not load it).
 */
export function roundDecimalString(a: string, dp: number): string {
  if (!isDecimalString(a) || scale(a) <= dp) return a;
  const negative = a.startsWith('-');
  const [intPart = '0', frac = ''] = (negative ? a.slice(1) : a).split('.');
  const digits = (intPart + frac.slice(0, dp)).split('').map(Number);
  if (Number(frac[dp]) >= 5) {
    let i = digits.length - 1;
    while (i >= 0 && digits[i] === 9) digits[i--] = 0;
    if (i >= 0) digits[i]! += 1;
    else digits.unshift(1);
  }
  const whole = digits.join('');
  const cut = whole.length - dp;
  const body = dp > 0 ? `${whole.slice(0, cut)}.${whole.slice(cut)}` : whole;
  const unsigned = body.replace(/^0+(?=\d)/, '');
  return negative && /[1-9]/.test(unsigned) ? `-${unsigned}` : unsigned;
}

/**
 * A US dollar value as a person reads it: to the cent ("9.25" for the API's
 * "9.249125"), and "< 0.01" for a value that rounds to nothing but is not zero.
 */
export function formatUsd(a: string): string {
  if (!isDecimalString(a)) return a;
  const cents = roundDecimalString(a, 2);
  if (!/[1-9]/.test(cents) && /[1-9]/.test(a)) return a.startsWith('-') ? '> -0.01' : '< 0.01';
  return formatAmount(cents, { minFractionDigits: 2 });
}
