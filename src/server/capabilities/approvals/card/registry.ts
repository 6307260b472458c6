import type { ApprovalCard, ApprovalCardKind } from '#contract/approval-card.ts';
import type { Clock } from '../../../clock.ts';
import type { CustodyBackend, CustodyContext } from '../../../custody/backend.ts';
import type { Database } from '../../../db/client.ts';

/**
 * What a card is loaded with: the scoped backend (so an item outside the
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

/**
 * An approvable kind: how it loads its card. `loadCard` answers null when the
 * id names no item of its kind (the next kind is asked), and throws a 404 for
 * one outside the member's scope only as its own read would (which is also null
 * here: the scoped backend answers 404 for both, and both read as "not found").
 * The one approval core will grow from this list: a kind declares its card here.
 */
export interface ApprovableKind {
  kind: ApprovalCardKind;
  loadCard(card: CardContext, entityId: string): Promise<ApprovalCard | null>;
}
