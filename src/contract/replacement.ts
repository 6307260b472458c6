import { ApiError } from './api-error.ts';
import { ERROR_CODES } from './common.ts';
import type { TransactionCategory } from './enums.ts';

/**
 * Which transactions a replacement (endpoint 6) may stand in for, by
 * category and direction; the chain and status rules are the engine's
 * (chains.ts's `supportsReplacement`, SUBMITTED only).
 *
 * A replacement is the same chain transaction again with the same nonce and
 * a higher fee: whichever of the two lands spends the nonce, the other can
 * never land, so exactly one of the pair moves money. That holds for every
 * category that is one chain transaction (transfers, token transfers and
 * approvals, contract calls, swaps through a router, stakes, delegations).
 *
 * It does not hold for a ramp or an FX: each is a provider's operation of
 * several legs (crypto to the provider, the trade, a bank payout or a
 * deposit), and the provider goes on with the original whatever happens to
 * a copy of its on-chain leg. A replacement of one would be a second payout.
 */
export const UNREPLACEABLE_CATEGORIES = [
  'ON_RAMP',
  'OFF_RAMP',
  'RAMP',
] as const satisfies readonly TransactionCategory[];

export function isReplaceableCategory(category: string | null | undefined): boolean {
  return !(UNREPLACEABLE_CATEGORIES as readonly string[]).includes(category ?? '');
}

/** Why a transaction of this category has no replacement, in a reader's words. */
export const UNREPLACEABLE_REASON =
  "a ramp or FX is a provider's operation of several steps, not one chain transaction: a replacement would pay out a second time";

/**
 * The refusal (400 with a code, as SDK users catch state conflicts) of a
 * replacement of `tx` that can never be made: a ramp or FX, or an incoming
 * transaction (someone else signed it; only its sender can replace it).
 * Null when its category and direction allow one. The sandbox asks it under
 * the original's row lock; upstream, the console asks it before sending.
 */
export function replacementRefusal(tx: {
  id?: string | null | undefined;
  category?: string | null | undefined;
  transactionType?: string | null | undefined;
}): ApiError | null {
  const id = tx.id ?? '';
  if (!isReplaceableCategory(tx.category))
    return new ApiError(
      400,
      ERROR_CODES.categoryNotReplaceable,
      `transaction ${id} is ${tx.category}, which cannot be replaced: ${UNREPLACEABLE_REASON}`,
      [{ field: 'transactionId', message: `is ${tx.category}, which cannot be replaced` }],
    );
  if (tx.transactionType === 'INCOMING')
    return new ApiError(
      400,
      ERROR_CODES.incomingNotReplaceable,
      `transaction ${id} is INCOMING: only its sender, who signed it, can replace it`,
      [{ field: 'transactionId', message: 'is INCOMING: only its sender can replace it' }],
    );
  return null;
}
