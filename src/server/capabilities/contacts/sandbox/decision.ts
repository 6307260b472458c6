import { and, eq } from 'drizzle-orm';
import { contacts, type changeRequests } from '../../../db/schema/sandbox.ts';
import type { Executor } from '../../../custody/sandbox/engine/transitions.ts';

/**
 * What deciding a contact's change request does to it, inside the database
 * transaction that records the decision (capabilities/approvals/sandbox/effects.ts,
 * which the sandbox's composition hands this to). False when the contact
 * cannot take it, which rolls the decision back.
 *
 * - Its proposal (no proposed change): PENDING becomes APPROVED or DECLINED.
 * - A change to an approved contact's asset list: approved, the list is
 *   replaced; rejected, the contact stays as it was approved.
 */
export async function applyContactDecision(
  db: Executor,
  request: typeof changeRequests.$inferSelect,
  approve: boolean,
  at: Date,
): Promise<boolean> {
  const change = request.proposedChange;
  const where = (status: 'PENDING' | 'APPROVED') =>
    and(
      eq(contacts.id, request.entityId),
      eq(contacts.orgId, request.orgId),
      eq(contacts.status, status),
    );
  if (!change) {
    const moved = await db
      .update(contacts)
      .set({ status: approve ? 'APPROVED' : 'DECLINED', updatedAt: at })
      .where(where('PENDING'))
      .returning({ id: contacts.id });
    return moved.length > 0;
  }
  if (!approve) {
    const [still] = await db
      .select({ id: contacts.id })
      .from(contacts)
      .where(where('APPROVED'))
      .limit(1);
    return still !== undefined;
  }
  const changed = await db
    .update(contacts)
    .set({ assetList: change.assetList, updatedAt: at })
    .where(where('APPROVED'))
    .returning({ id: contacts.id });
  return changed.length > 0;
}
