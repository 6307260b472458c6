import { and, asc, eq, inArray } from 'drizzle-orm';
import type { ChangeRequestRecord } from '#contract/change-request.ts';
import type { Database } from '../../../db/client.ts';
import { apiUsers, changeRequests } from '../../../db/schema/sandbox.ts';

/**
 * An entity's change requests, oldest first, as the sandbox recorded them.
 * API users are named here (their names live in the sandbox); staff are
 * named by the console, which owns the staff table.
 */
export async function changeRequestHistory(
  db: Database,
  orgId: string | null,
  entityId: string,
): Promise<ChangeRequestRecord[]> {
  if (!orgId) return [];
  const rows = await db
    .select()
    .from(changeRequests)
    .where(and(eq(changeRequests.orgId, orgId), eq(changeRequests.entityId, entityId)))
    .orderBy(asc(changeRequests.createdAt), asc(changeRequests.id));

  const apiUserIds = new Set<string>();
  for (const row of rows) {
    if (row.createdByType === 'API_USER') apiUserIds.add(row.createdById);
    if (row.decidedByType === 'API_USER' && row.decidedById) apiUserIds.add(row.decidedById);
  }
  const names = new Map<string, string>();
  if (apiUserIds.size > 0) {
    const users = await db
      .select({ id: apiUsers.id, name: apiUsers.name })
      .from(apiUsers)
      .where(and(eq(apiUsers.orgId, orgId), inArray(apiUsers.id, [...apiUserIds])));
    for (const user of users) names.set(user.id, user.name);
  }
  const actor = (type: string | null, id: string | null) =>
    id ? { type: type ?? 'UNKNOWN', id, name: names.get(id) ?? null } : null;

  return rows.map((row) => ({
    changeRequestId: row.id,
    status: row.status,
    proposedBy: actor(row.createdByType, row.createdById),
    proposedAt: row.createdAt.toISOString(),
    // Seeded decisions predate decidedByType: an id without a type is still who decided.
    decidedBy: actor(row.decidedByType, row.decidedById),
    decidedAt: row.decidedAt ? row.decidedAt.toISOString() : null,
    reason: row.reason,
    ...(row.proposedChange ? { proposedChange: { assetList: row.proposedChange.assetList } } : {}),
  }));
}
