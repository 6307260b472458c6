import Big from 'big.js';

/**
 * The one decimal module. Amounts travel as decimal strings and every
 * computation on them goes through big.js here; they never become JS numbers.
 */

// Reading and showing amounts needs no maths: the SPA's lists load that half alone.
export {
  formatAmount,
  formatUsd,
  isDecimalString,
  roundDecimalString,
  scale,
} from './decimal-format.ts';

export function add(a: string, b: string): string {
  return new Big(a).plus(b).toFixed();
}

export function sub(a: string, b: string): string {
  return new Big(a).minus(b).toFixed();
}

export function mul(a: string, b: string): string {
  return new Big(a).times(b).toFixed();
}

/** `a / b` to `dp` places, rounded down (toward zero) or up (away from zero). */
export function div(a: string, b: string, dp: number, mode: 'down' | 'up' = 'down'): string {
  return new Big(a)
    .div(b)
    .round(dp, mode === 'down' ? Big.roundDown : Big.roundUp)
    .toFixed(dp);
}

export function neg(a: string): string {
  return new Big(a).times(-1).toFixed();
}

export function cmp(a: string, b: string): -1 | 0 | 1 {
  return new Big(a).cmp(b) as -1 | 0 | 1;
}

export function isNegative(a: string): boolean {
  return new Big(a).lt(0);
}

export function isZero(a: string): boolean {
  return new Big(a).eq(0);
}

export function sum(values: readonly string[]): string {
  return values.reduce((acc, v) => acc.plus(v), new Big(0)).toFixed();
}

/** Rounds to `dp` places, half-up for display and down (toward zero) for charges. */
export function round(a: string, dp: number, mode: 'down' | 'half-up' | 'up' = 'half-up'): string {
  const rm = mode === 'down' ? Big.roundDown : mode === 'up' ? Big.roundUp : Big.roundHalfUp;
  return new Big(a).round(dp, rm).toFixed(dp);
}
