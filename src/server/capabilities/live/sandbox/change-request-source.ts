import { asc, max } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { changeRequestEvents } from '../../../db/schema/sandbox.ts';
import { idsAfter, type LiveRow, type LiveSource } from '../source.ts';
import { consoleOrgOf } from './status-source.ts';

/**
 * The sandbox's record of bank accounts' and contacts' change requests opened
 * and decided (`sandbox.change_request_events`, written in the same database
 * transaction as the change by custody/sandbox/change-request-events.ts), as
 * a log the event stream tails. Only the console's organization's.
 */
export function sandboxChangeRequestSource(db: Database, orgId?: string): LiveSource {
  const consoleOrg = consoleOrgOf(db, orgId);
  return {
    tables: ['sandbox.change_request_events'],
    async head() {
      const [row] = await db.select({ id: max(changeRequestEvents.id) }).from(changeRequestEvents);
      return row?.id ?? 0;
    },
    async after(after, limit, upTo) {
      const rows = await db
        .select()
        .from(changeRequestEvents)
        .where(idsAfter(changeRequestEvents.id, after, upTo))
        .orderBy(asc(changeRequestEvents.id))
        .limit(limit);
      const mine = rows.length > 0 ? await consoleOrg() : undefined;
      return rows.map((row): LiveRow => ({
        id: row.id,
        event:
          row.orgId === mine
            ? {
                kind: row.kind === 'PROPOSED' ? 'approval.proposed' : 'approval.decided',
                entityType: row.entityType,
                entityId: row.entityId,
                subOrgId: row.subOrgId,
                status: row.status,
                at: row.at.toISOString(),
              }
            : null,
      }));
    },
  };
}
