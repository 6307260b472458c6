import { and, desc, eq, inArray, ne } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import {
  apiUsers,
  bankAccounts,
  changeRequests,
  transactions,
} from '../../../db/schema/sandbox.ts';
import type { RecordedApprovalDecision } from '../port.ts';

/**
 * How each entity's change request was decided, from the sandbox's own
 * records: the latest decided request per entity (an entity has one today;
 * the newest wins should that change). API users are named here; staff ids
 * are the console's to name.
 */
export async function approvalDecisions(
  db: Database,
  orgId: string | null,
  entityIds: readonly string[],
): Promise<RecordedApprovalDecision[]> {
  if (!orgId || entityIds.length === 0) return [];
  const rows = await db
    .select({
      entityId: changeRequests.entityId,
      entityType: changeRequests.entityType,
      status: changeRequests.status,
      decidedAt: changeRequests.decidedAt,
      decidedById: changeRequests.decidedById,
      decidedByType: changeRequests.decidedByType,
      reason: changeRequests.reason,
      apiUserName: apiUsers.name,
      transactionSubOrgId: transactions.subOrgId,
      bankAccountSubOrgId: bankAccounts.subOrgId,
    })
    .from(changeRequests)
    .leftJoin(apiUsers, eq(apiUsers.id, changeRequests.decidedById))
    .leftJoin(transactions, eq(transactions.id, changeRequests.entityId))
    .leftJoin(bankAccounts, eq(bankAccounts.id, changeRequests.entityId))
    .where(
      and(
        eq(changeRequests.orgId, orgId),
        inArray(changeRequests.entityId, [...entityIds]),
        ne(changeRequests.status, 'PENDING'),
      ),
    )
    .orderBy(desc(changeRequests.decidedAt), desc(changeRequests.id));

  const seen = new Set<string>();
  const decisions: RecordedApprovalDecision[] = [];
  for (const row of rows) {
    if (seen.has(row.entityId) || !row.decidedAt || !row.decidedById) continue;
    if (row.status !== 'APPROVED' && row.status !== 'REJECTED') continue;
    seen.add(row.entityId);
    const byType = row.decidedByType ?? 'API_USER';
    decisions.push({
      entityId: row.entityId,
      entityType: row.entityType,
      decision: row.status,
      decidedAt: row.decidedAt.toISOString(),
      decidedBy: {
        type: byType,
        id: row.decidedById,
        name: byType === 'API_USER' ? (row.apiUserName ?? null) : null,
      },
      reason: row.reason,
      subOrgId: row.transactionSubOrgId ?? row.bankAccountSubOrgId ?? null,
    });
  }
  return decisions;
}
