import type { ApprovalCardIntent } from '#contract/approval-card.ts';

/**
 * The intents of the cards this server computed lately, by item and digest.
 * A card's fee ceiling is its tier's estimate, which the market moves every
 * half minute, so the digest of an item's card changes while a member reads
 * it without anything they decide on changing. A decision names the digest
 * of the card shown; this lets the server find that card again and judge it
 * by what it binds (contract/card-changes.ts `intentChange`) rather than by the digest
 * alone. Memory only, and bounded: a card not found here (another server, an
 * old one) is judged by its digest, which only ever refuses (CARD_CHANGED,
 * and the member is shown the card again), never accepts more.
 */

const KEEP_MS = 15 * 60_000;
const MAX_CARDS = 5_000;

const shown = new Map<string, { intent: ApprovalCardIntent; at: number }>();

const keyOf = (entityId: string, digest: string) => `${entityId}\n${digest}`;

export function rememberCard(
  entityId: string,
  digest: string,
  intent: ApprovalCardIntent,
  now: number,
): void {
  const key = keyOf(entityId, digest);
  shown.delete(key);
  shown.set(key, { intent, at: now });
  // Oldest first (insertion order): drop what is too old or beyond the bound.
  for (const [k, v] of shown) {
    if (shown.size <= MAX_CARDS && now - v.at <= KEEP_MS) break;
    shown.delete(k);
  }
}

/** The intent of a card computed for this item with this digest lately; null if none. */
export function cardShown(
  entityId: string,
  digest: string,
  now: number,
): ApprovalCardIntent | null {
  const found = shown.get(keyOf(entityId, digest));
  return found && now - found.at <= KEEP_MS ? found.intent : null;
}
