import { and, eq } from 'drizzle-orm';
import { bankAccounts, type changeRequests } from '../../../db/schema/sandbox.ts';
import type { Executor } from '../../../custody/sandbox/engine/transitions.ts';

/**
 * What deciding a bank account's change request does to it, inside the
 * database transaction that records the decision
 * (capabilities/approvals/sandbox/effects.ts, which the sandbox's composition
 * hands this to): PENDING becomes APPROVED or DECLINED. False when it is no
 * longer PENDING, which rolls the decision back.
 */
export async function applyBankAccountDecision(
  db: Executor,
  request: typeof changeRequests.$inferSelect,
  approve: boolean,
  at: Date,
): Promise<boolean> {
  const moved = await db
    .update(bankAccounts)
    .set({ status: approve ? 'APPROVED' : 'DECLINED', updatedAt: at })
    .where(
      and(
        eq(bankAccounts.id, request.entityId),
        eq(bankAccounts.orgId, request.orgId),
        eq(bankAccounts.status, 'PENDING'),
      ),
    )
    .returning({ id: bankAccounts.id });
  return moved.length > 0;
}
