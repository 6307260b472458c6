import type { ApprovalCard } from '#contract/approval-card.ts';
import type { AuthOptions } from '../../../auth/session-auth.ts';
import type { Clock } from '../../../clock.ts';
import type { CustodyBackend, CustodyContext } from '../../../custody/backend.ts';
import type { Database } from '../../../db/client.ts';

/**
 * The one approval core's view of an approvable kind (ARCHITECTURE.md,
 * "Approvable kinds"). A kind declares only what is its own: how to load its
 * card, whether an item still waits and where it belongs (its scope, the
 * fact its frozen rule and live events are filed under) and, for a kind the
 * console holds itself, its effect once decided. Everything else comes from
 * the core: the card's route and digest, the signed intent (challenge →
 * assertion → verify, the card checked again before anything moves), votes
 * and quorum under the frozen rule, the signature stored once decided, the
 * live events and the audit entry.
 */

/**
 * What a kind reads with: the scoped backend (so an item outside the
 * member's sub-organizations is a 404, as its own read), the console's
 * database (frozen rules and votes), the clock, and the member asking.
 */
export interface CardContext {
  backend: CustodyBackend;
  ctx: CustodyContext;
  db: Database;
  clock: Clock;
  /** The staff member asking: the quorum says whether they are linked to the initiator. */
  memberId: string | null;
}

/** An item as the core judges it: whether it still waits for a decision, and its sub-organization. */
export interface ItemState {
  pending: boolean;
  subOrgId: string | null;
}

export interface ApprovableKind {
  /** Its name: the card's kind, and the entity type its frozen rule, votes and events are filed under. */
  kind: string;
  /**
   * Its card, or null when the id names no item of this kind (the next kind
   * is asked). An item outside the member's scope is null too: the scoped
   * backend answers 404 for both, and both read as "not found".
   */
  loadCard(card: CardContext, entityId: string): Promise<ApprovalCard | null>;
  /**
   * Whether the item still waits and its sub-organization, read through the
   * scoped backend: an item outside the member's scope throws its 404, so no
   * vote is kept on it.
   */
  stateOf(card: CardContext, entityId: string): Promise<ItemState>;
  /**
   * A kind the console holds itself (no change request at the custody
   * backend): what its outcome does, once its frozen rule is settled, run by
   * the one request that holds the claim. A refusal (a 4xx) takes that
   * decision back, as a custody backend's refusal does. Its writes go through
   * `card.db`: the core hands it the transaction that also marks the item
   * decided and keeps the settling signature, so all stand or none. Custody
   * kinds leave it out: the console sends their one approval to the custody
   * backend (policies/guard.ts).
   */
  settle?(
    card: CardContext,
    entityId: string,
    outcome: 'APPROVED' | 'DECLINED',
  ): Promise<void | SettledEffect>;
}

/**
 * What a held kind's effect leaves to do once its transaction has committed,
 * and only then: what is not in the database (this server's open event
 * streams of members whose sessions the effect ended).
 */
export interface SettledEffect {
  afterCommit(auth: AuthOptions): void;
}

/**
 * Whether items of that entity type are held by the console itself (the kind
 * settles them): decided only by members, through the held item's page, never
 * by an API client.
 */
export function isHeldKind(kinds: readonly ApprovableKind[], entityType: string): boolean {
  return kinds.some((k) => k.kind === entityType && k.settle !== undefined);
}

/** The kind of that name among `kinds`; an entity type no kind declares is a bug, never a 404. */
export function kindNamed(kinds: readonly ApprovableKind[], name: string): ApprovableKind {
  const found = kinds.find((k) => k.kind === name);
  if (!found) throw new Error(`No approvable kind "${name}"`);
  return found;
}
