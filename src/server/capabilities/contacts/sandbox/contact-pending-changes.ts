import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { changeRequests } from '../../../db/schema/sandbox.ts';

/** The asset list awaiting approval for each of these contacts that has one: one query. */
export async function pendingAssetLists(
  db: Database,
  orgId: string,
  contactIds: readonly string[],
): Promise<Map<string, string[]>> {
  if (contactIds.length === 0) return new Map();
  const rows = await db
    .select({ entityId: changeRequests.entityId, change: changeRequests.proposedChange })
    .from(changeRequests)
    .where(
      and(
        eq(changeRequests.orgId, orgId),
        eq(changeRequests.entityType, 'CONTACT'),
        eq(changeRequests.status, 'PENDING'),
        isNotNull(changeRequests.proposedChange),
        inArray(changeRequests.entityId, [...contactIds]),
      ),
    );
  return new Map(rows.flatMap((r) => (r.change ? [[r.entityId, r.change.assetList]] : [])));
}
