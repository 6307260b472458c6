import { cmp } from '#contract/decimal.ts';
import type { RampQuote } from '#contract/ramp-record.ts';

/** Quotes in the order a treasurer compares them; amounts compared through the decimal module only. */

/**
 * Best first: the most arriving, then (the amount fixed on the arriving
 * side, where every quote delivers the same) the least leaving, then the
 * fastest. The server answers best first too; the page does not rely on it.
 */
export function bestFirst(quotes: readonly RampQuote[]): RampQuote[] {
  return [...quotes].sort(
    (a, b) =>
      cmp(b.finalToAmount ?? '0', a.finalToAmount ?? '0') ||
      cmp(a.finalFromAmount ?? '0', b.finalFromAmount ?? '0') ||
      (a.estCompletionTimeInSec ?? Infinity) - (b.estCompletionTimeInSec ?? Infinity),
  );
}
