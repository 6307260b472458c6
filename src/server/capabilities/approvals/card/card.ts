import {
  intentDigest,
  type ApprovalCard,
  type ApprovalCardResponse,
} from '#contract/approval-card.ts';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { CardPreviewRequest } from '#contract/trades.ts';
import { requirementsOf } from '../../policies/progress.ts';
import { voidChangedVotesNow } from '../../policies/votes.store.ts';
import { hasChangedVotes } from '../signing/signatures.store.ts';
import type { ApprovableKind, CardContext } from '../core/kind.ts';
import { APPROVABLE_KINDS } from '../core/kinds.ts';
import { rememberCard } from './cards-shown.ts';
import { previewSwapCard, previewTransactionCard } from './transaction.ts';

const answer = (card: ApprovalCard): ApprovalCardResponse => ({
  card,
  digest: intentDigest(card.intent),
});

/**
 * The card of one item: the kind its frozen rule names when it has one, else
 * each kind in turn. An item the member may not see is not found, as its read.
 */
export async function approvalCardOf(
  card: CardContext,
  entityId: string,
  kinds: readonly ApprovableKind[] = APPROVABLE_KINDS,
): Promise<ApprovalCardResponse> {
  const [row] = await requirementsOf(card.db, [entityId]);
  const named = row ? kinds.filter((k) => k.kind === row.entityType) : [];
  for (const kind of named.length ? named : kinds) {
    const loaded = await kind.loadCard(card, entityId);
    if (loaded) {
      const response = answer(await rejudged(card, kind, entityId, loaded, row));
      rememberCard(entityId, response.digest, response.card.intent, card.clock.now().getTime());
      return response;
    }
  }
  throw new ApiError(404, ERROR_CODES.notFound, 'No approvable item with that id');
}

/**
 * The card, once every vote on it is judged against it: an approval cast over
 * a card that no longer holds (another amount, destination, call or quote, or
 * a fee above the ceiling signed) stops counting as soon as the item is read,
 * not only when the next vote comes, so its page, the inbox and its signatures
 * say so when they are read. The same rule, under the same lock, as a vote's
 * (`voidChangedVotesNow`); only while the rule is unsettled. Read again when a
 * vote was voided, so its quorum no longer holds it.
 */
async function rejudged(
  card: CardContext,
  kind: ApprovableKind,
  entityId: string,
  loaded: ApprovalCard,
  row: Awaited<ReturnType<typeof requirementsOf>>[number] | undefined,
): Promise<ApprovalCard> {
  if (row?.settled !== null || !(await hasChangedVotes(card.db, entityId, loaded.intent)))
    return loaded;
  const { subOrgId } = await kind.stateOf(card, entityId);
  const voided = await voidChangedVotesNow(
    card.db,
    { entityId, entityType: row.entityType, subOrgId },
    loaded.intent,
    card.clock.now(),
  );
  return voided.length ? ((await kind.loadCard(card, entityId)) ?? loaded) : loaded;
}

/** The intent of an item's card now; null for an item no kind has a card of. */
export async function currentIntentOf(
  card: CardContext,
  entityId: string,
  kinds: readonly ApprovableKind[] = APPROVABLE_KINDS,
): Promise<ApprovalCardResponse['card']['intent'] | null> {
  try {
    return (await approvalCardOf(card, entityId, kinds)).card.intent;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** The card of a transaction not yet sent (the initiator's review): a create, or a swap's quote. */
export async function previewCardOf(
  card: CardContext,
  body: CardPreviewRequest,
): Promise<ApprovalCardResponse> {
  return answer(
    body.category === 'SWAP'
      ? await previewSwapCard(card, body)
      : await previewTransactionCard(card, body),
  );
}
