import type { TransactionCategory } from './enums.ts';

/**
 * Which transactions a replacement (endpoint 6) may stand in for, by
 * category; the chain and status rules are the engine's (chains.ts's
 * `supportsReplacement`, SUBMITTED only).
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
