import { and, eq, gt, inArray, lt } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { approvalRequirements, staff } from '../../../db/schema/console.ts';
import { transactions } from '../../../db/schema/sandbox.ts';
import type { Derived } from '../derive.ts';
import { sees } from '../recipients.ts';

/** The statuses a transaction moves through on its own: one that sits in them is stuck. */
const MOVING = ['APPROVED', 'SIGNED', 'SUBMITTED', 'WAITING_CONFIRMATION'] as const;
/** How often the sandbox's transactions are looked at. */
const EVERY_MS = 60_000;
/** A transaction stuck longer than this before it was first looked at is not told. */
const LOOK_BACK_MS = 24 * 60 * 60 * 1000;

/**
 * The sandbox's transactions that have sat in one status they leave on their
 * own (not waiting for a person) for `afterMs`: "stuck", told to their
 * initiator and the teams' chat once per status (the status and when it was
 * reached are the message's round). Looked at once a minute.
 */
export function stuckTransactions(db: Database, afterMs: number) {
  let last = 0;
  return async (now: Date): Promise<Derived[]> => {
    if (now.getTime() - last < EVERY_MS) return [];
    last = now.getTime();
    const rows = await db
      .select({
        id: transactions.id,
        status: transactions.status,
        subOrgId: transactions.subOrgId,
        updatedAt: transactions.updatedAt,
        initiatorType: approvalRequirements.initiatorType,
        initiatorId: approvalRequirements.initiatorId,
      })
      .from(transactions)
      .leftJoin(approvalRequirements, eq(approvalRequirements.entityId, transactions.id))
      .where(
        and(
          inArray(transactions.status, [...MOVING]),
          lt(transactions.updatedAt, new Date(now.getTime() - afterMs)),
          gt(transactions.updatedAt, new Date(now.getTime() - afterMs - LOOK_BACK_MS)),
        ),
      )
      .limit(500);
    if (rows.length === 0) return [];
    const ids = rows.flatMap((r) =>
      r.initiatorType === 'STAFF' && r.initiatorId ? [r.initiatorId] : [],
    );
    const members = ids.length
      ? await db
          .select({
            id: staff.id,
            email: staff.email,
            name: staff.name,
            role: staff.role,
            subOrgIds: staff.subOrgIds,
            createdBy: staff.createdBy,
          })
          .from(staff)
          .where(and(inArray(staff.id, ids), eq(staff.disabled, false)))
      : [];
    const minutes = Math.round(afterMs / 60_000);
    return rows.map((row) => ({
      notice: {
        event: 'STUCK',
        entityType: 'TRANSACTION',
        entityId: row.id,
        subOrgId: row.subOrgId,
        detail: `It has been ${row.status} for more than ${minutes} minutes.`,
      },
      members: members.filter((m) => m.id === row.initiatorId && sees(m, row.subOrgId)),
      round: `${row.status}@${row.updatedAt.toISOString()}`,
    }));
  };
}
