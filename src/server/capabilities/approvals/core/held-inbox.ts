import { and, inArray, isNull } from 'drizzle-orm';
import type { ChangeRequestActor } from '#contract/change-request.ts';
import { ApiError } from '#contract/api-error.ts';
import { cachedRead } from '../../../db/read-cache.ts';
import { approvalRequirements } from '../../../db/schema/console.ts';
import { kindNamed, type ApprovableKind, type CardContext } from './kind.ts';

/**
 * What waits among the kinds the console holds itself, for the inbox and its
 * badge, read the same way for every such kind: an item waits while its
 * frozen rule is unsettled (the core freezes it as the item is proposed,
 * `proposeHeld`), the kind says whether it still waits and where it belongs
 * (`stateOf`, through the scoped backend: an item outside the member's scope
 * is left out, as the backend leaves out its own), and its card is read only
 * for the items a page shows. Held items are proposals a member makes by
 * hand (a policy publish, a staff change), a handful at a time, so reading
 * each one's state per inbox read costs little.
 */

export interface HeldWaiting {
  id: string;
  kind: ApprovableKind;
  createdAt: string;
  subOrgId: string | null;
  initiator: ChangeRequestActor;
}

/** Every held item waiting that the member may see (in `subOrgId`, when one is asked for). */
export async function heldWaiting(
  card: CardContext,
  kinds: readonly ApprovableKind[],
  subOrgId: string | undefined,
): Promise<HeldWaiting[]> {
  const held = kinds.filter((k) => k.settle).map((k) => k.kind);
  if (held.length === 0) return [];
  // Kept while no requirement is written (db/read-cache.ts): every approver's inbox and
  // overview read starts here, and the state of each item is still read below.
  const rows = await cachedRead(
    `held-unsettled:${held.join(',')}`,
    () =>
      card.db
        .select({
          entityId: approvalRequirements.entityId,
          entityType: approvalRequirements.entityType,
          createdAt: approvalRequirements.createdAt,
          initiatorType: approvalRequirements.initiatorType,
          initiatorId: approvalRequirements.initiatorId,
        })
        .from(approvalRequirements)
        .where(
          and(inArray(approvalRequirements.entityType, held), isNull(approvalRequirements.settled)),
        ),
    [approvalRequirements],
  );
  const found = await Promise.all(
    rows.map(async (row): Promise<HeldWaiting | null> => {
      const kind = kindNamed(kinds, row.entityType);
      const state = await kind.stateOf(card, row.entityId).catch((error: unknown) => {
        // Outside the member's scope, or gone: not theirs to see, as the backend's own lists.
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      });
      if (!state?.pending) return null;
      if (subOrgId !== undefined && state.subOrgId !== subOrgId) return null;
      return {
        id: row.entityId,
        kind,
        createdAt: row.createdAt.toISOString(),
        subOrgId: state.subOrgId,
        initiator: { type: row.initiatorType, id: row.initiatorId, name: null },
      };
    }),
  );
  return found.filter((item) => item !== null);
}
