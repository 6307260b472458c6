import { asc, eq, max } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import {
  organizations,
  transactions,
  transactionStatusEvents,
} from '../../../db/schema/sandbox.ts';
import { idsAfter, type LiveRow, type LiveSource } from '../source.ts';

/**
 * The sandbox's record of every status change (`sandbox.transaction_status_events`,
 * written in the same database transaction as the change itself by
 * engine/transitions.ts and engine/create.ts), as a log the event stream
 * tails. Only the console's organization's transactions (the oldest
 * organization unless given, as the sandbox backend chooses it).
 */
export function sandboxStatusSource(db: Database, orgId?: string): LiveSource {
  const consoleOrg = consoleOrgOf(db, orgId);
  return {
    tables: ['sandbox.transaction_status_events'],
    async head() {
      const [row] = await db
        .select({ id: max(transactionStatusEvents.id) })
        .from(transactionStatusEvents);
      return row?.id ?? 0;
    },
    async after(after, limit, upTo) {
      const rows = await db
        .select({
          id: transactionStatusEvents.id,
          transactionId: transactionStatusEvents.transactionId,
          status: transactionStatusEvents.status,
          at: transactionStatusEvents.at,
          subOrgId: transactions.subOrgId,
          orgId: transactions.orgId,
        })
        .from(transactionStatusEvents)
        .innerJoin(transactions, eq(transactions.id, transactionStatusEvents.transactionId))
        .where(idsAfter(transactionStatusEvents.id, after, upTo))
        .orderBy(asc(transactionStatusEvents.id))
        .limit(limit);
      const mine = rows.length > 0 ? await consoleOrg() : undefined;
      // Another organization's rows keep their place in the log (the tail's position moves
      // past them) but carry nothing: no event is sent for them.
      return rows.map((row): LiveRow => ({
        id: row.id,
        event:
          row.orgId === mine
            ? {
                kind: 'transaction.status',
                transactionId: row.transactionId,
                subOrgId: row.subOrgId,
                status: row.status,
                at: row.at.toISOString(),
              }
            : null,
      }));
    },
  };
}

/** The console's organization, `orgId` or else the oldest, found once it is first asked for. */
export function consoleOrgOf(db: Database, orgId?: string): () => Promise<string | undefined> {
  let org = orgId;
  return async () => {
    if (!org) {
      const [oldest] = await db
        .select({ id: organizations.id })
        .from(organizations)
        .orderBy(asc(organizations.createdAt), asc(organizations.id))
        .limit(1);
      org = oldest?.id;
    }
    return org;
  };
}
