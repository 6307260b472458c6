import { and, eq, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import {
  apiUsers,
  bankAccounts,
  changeRequests,
  transactions,
} from '../../../db/schema/sandbox.ts';
import type {
  PendingApproval,
  PendingApprovalInitiator,
  PendingApprovalPosition,
  PendingApprovals,
  PendingApprovalsQuery,
} from '../../backend.ts';
import { after, newestFirst } from '../keyset.ts';
import { toWireBankAccount, toWireTransaction } from '../mappers.ts';

/**
 * The approvals inbox over the sandbox's tables: PENDING transactions and
 * bank accounts in one newest-first order (createdAt, then kind, then id, all
 * descending).
 *
 * A page reads at most `limit + 1` rows of each table from the position
 * after the cursor, each a backward range of the `(org, status, createdAt,
 * id)` index, and merges them. The counts are COUNT queries over that range:
 * the database counts the waiting rows' index entries, and none is read out,
 * mapped or sorted. They do not depend on the cursor, so the backend caches
 * them apart from the pages (sandbox-backend.ts): paging through the inbox
 * counts once until something is written.
 *
 * Who proposed each item of a page is read in one more query: the pending
 * change requests of the page's entities (an index seek each on
 * `change_requests_entity_idx`), with the API user's name where an API
 * client proposed it, the same record a transaction's or bank account's
 * history names (approvals/history.ts).
 */

type Table = typeof transactions | typeof bankAccounts;
type Kind = PendingApproval['kind'];

/** Rows of `kind` strictly after `position` in the inbox's order. */
function afterPosition(
  table: Table,
  kind: Kind,
  position: PendingApprovalPosition,
): SQL | undefined {
  if (kind === position.kind) return after(table, position);
  // At one instant a TRANSACTION comes before a BANK_ACCOUNT (kind descending).
  return kind === 'BANK_ACCOUNT'
    ? lte(table.createdAt, position.createdAt)
    : lt(table.createdAt, position.createdAt);
}

function waiting(table: Table, orgId: string, scope: PendingApprovalsQuery): SQL | undefined {
  return and(
    eq(table.orgId, orgId),
    eq(table.status, 'PENDING'),
    scope.subOrgId ? eq(table.subOrgId, scope.subOrgId) : undefined,
    // A staff member's scope (several sub-orgs); see console/scoped-backend.ts.
    scope.subOrgIds ? inArray(table.subOrgId, scope.subOrgIds) : undefined,
  );
}

export type PendingApprovalPage = Pick<PendingApprovals, 'items' | 'hasNext'>;
export type PendingApprovalCounts = Pick<PendingApprovals, 'totalCount' | 'actionableCount'>;

/** The two reads of a page: each kind's first `limit + 1` rows after the cursor's position. */
export function pageQueries(db: Database, orgId: string, query: PendingApprovalsQuery) {
  const where = (table: Table, kind: Kind) =>
    and(
      waiting(table, orgId, query),
      query.after ? afterPosition(table, kind, query.after) : undefined,
    );
  return {
    transactions: db
      .select()
      .from(transactions)
      .where(where(transactions, 'TRANSACTION'))
      .orderBy(...newestFirst(transactions))
      .limit(query.limit + 1),
    bankAccounts: db
      .select()
      .from(bankAccounts)
      .where(where(bankAccounts, 'BANK_ACCOUNT'))
      .orderBy(...newestFirst(bankAccounts))
      .limit(query.limit + 1),
  };
}

export async function pendingApprovalPage(
  db: Database,
  orgId: string | null,
  query: PendingApprovalsQuery,
): Promise<PendingApprovalPage> {
  if (!orgId) return { items: [], hasNext: false };
  const take = query.limit + 1;
  const reads = pageQueries(db, orgId, query);
  const [txRows, accountRows] = await Promise.all([reads.transactions, reads.bankAccounts]);

  // Two newest-first runs merged: at one instant a transaction comes first. Within a
  // kind the database's order stands (ids compare by its collation, as the keyset does).
  const merged: PendingApproval[] = [];
  let t = 0;
  let a = 0;
  while (merged.length < take && (t < txRows.length || a < accountRows.length)) {
    const tx = txRows[t];
    const account = accountRows[a];
    if (tx && (!account || tx.createdAt.getTime() >= account.createdAt.getTime())) {
      merged.push({ kind: 'TRANSACTION', transaction: toWireTransaction(tx) });
      t += 1;
    } else if (account) {
      merged.push({ kind: 'BANK_ACCOUNT', bankAccount: toWireBankAccount(account) });
      a += 1;
    }
  }
  const items = merged.slice(0, query.limit);
  const initiators = await pendingInitiators(
    db,
    orgId,
    items.map((item) => (item.kind === 'TRANSACTION' ? item.transaction.id : item.bankAccount.id)),
  );
  return {
    items: items.map((item) => {
      const id = item.kind === 'TRANSACTION' ? item.transaction.id : item.bankAccount.id;
      return { ...item, initiator: (id && initiators.get(id)) || null };
    }),
    hasNext: merged.length > query.limit,
  };
}

/** The query's scope and creator: what the counts depend on (not its cursor or limit). */
export function countsKey(query: PendingApprovalsQuery) {
  return { subOrgId: query.subOrgId, subOrgIds: query.subOrgIds, creatorId: query.creatorId };
}

export async function pendingApprovalCounts(
  db: Database,
  orgId: string | null,
  query: PendingApprovalsQuery,
): Promise<PendingApprovalCounts> {
  if (!orgId) return { totalCount: 0, actionableCount: 0 };
  const count = async (table: Table) => {
    const theirs = query.creatorId
      ? sql<number>`count(*) filter (where ${table.createdById} is distinct from ${query.creatorId})::int`
      : sql<number>`count(*)::int`;
    const [row] = await db
      .select({ total: sql<number>`count(*)::int`, actionable: theirs })
      .from(table)
      .where(waiting(table, orgId, query));
    return { total: row?.total ?? 0, actionable: row?.actionable ?? 0 };
  };
  const [tx, accounts] = await Promise.all([count(transactions), count(bankAccounts)]);
  return {
    totalCount: tx.total + accounts.total,
    actionableCount: tx.actionable + accounts.actionable,
  };
}

/** The tables a page reads, for the read cache (db/read-cache.ts): a stale one would name the wrong initiator. */
export const PENDING_PAGE_TABLES = [transactions, bankAccounts, changeRequests, apiUsers];

/**
 * The read of who proposed these entities: each one's PENDING change request
 * (one at a time: a decision closes it), with an API user's name. One lookup per
 * id (a lateral join on `change_requests_entity_idx`), not one IN list: on a
 * database never analyzed (PGlite) the planner priced an IN list of a page's
 * ids at a tenth of the table and read all of it instead.
 */
export function initiatorsQuery(orgId: string, entityIds: readonly string[]): SQL {
  const ids = sql.join(
    entityIds.map((id) => sql`${id}`),
    sql`, `,
  );
  return sql`select e.id as "entityId", cr.created_by_type as "type", cr.created_by_id as "id", ${apiUsers.name} as "apiUserName"
    from unnest(array[${ids}]::text[]) as e(id)
    cross join lateral (
      select ${changeRequests.createdByType} as created_by_type, ${changeRequests.createdById} as created_by_id
      from ${changeRequests}
      where ${changeRequests.entityId} = e.id and ${changeRequests.orgId} = ${orgId}
        and ${changeRequests.status} = 'PENDING'
      limit 1
    ) as cr
    left join ${apiUsers} on cr.created_by_type = 'API_USER'
      and ${apiUsers.id} = cr.created_by_id and ${apiUsers.orgId} = ${orgId}`;
}

type InitiatorRow = {
  entityId: string;
  type: string;
  id: string;
  apiUserName: string | null;
};

/** Who proposed each of these pending entities, by entity id: their open change request's creator. */
async function pendingInitiators(
  db: Database,
  orgId: string,
  entityIds: ReadonlyArray<string | undefined>,
): Promise<Map<string, PendingApprovalInitiator>> {
  const ids = entityIds.filter((id): id is string => Boolean(id));
  const found = new Map<string, PendingApprovalInitiator>();
  if (ids.length === 0) return found;
  const result = await db.execute<InitiatorRow>(initiatorsQuery(orgId, ids));
  // PGlite answers { rows }, node-postgres a result with rows as well; some drivers the array.
  const rows = Array.isArray(result)
    ? (result as InitiatorRow[])
    : (result as { rows: InitiatorRow[] }).rows;
  for (const row of rows) {
    found.set(row.entityId, { type: row.type, id: row.id, name: row.apiUserName ?? null });
  }
  return found;
}
