/**
 * The string half of the decimal module (decimal.ts re-exports it): checking
 * and showing a decimal string needs no arithmetic, so pages that only show
 * amounts do not load big.js (ARCHITECTURE.md, "First load").
 */

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
