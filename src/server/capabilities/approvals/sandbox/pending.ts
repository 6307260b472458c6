import { and, eq, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { apiUsers, bankAccounts, transactions } from '../../../db/schema/sandbox.ts';
import type {
  PendingApproval,
  PendingApprovalInitiator,
  PendingApprovalPosition,
  PendingApprovals,
  PendingApprovalsQuery,
} from '../../../custody/backend.ts';
import { after, newestFirst } from '../../../custody/sandbox/keyset.ts';
import { toWireBankAccount, toWireTransaction } from '../../../custody/sandbox/mappers.ts';

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
 * them apart from the pages (index.ts): paging through the inbox
 * counts once until something is written.
 *
 * Who proposed each item is read with it, in the same query: the row's own
 * creator (`createdById`, and on a transaction `createdByType`: the creator
 * its change request names too, `creatorOf` of custody/sandbox/change-request.ts), with the API
 * user's name joined where an API client proposed it. A lookup of each
 * row's change request instead cost 2 ms more a page on PostgreSQL (42
 * index probes for the limit + 1 rows of both kinds), and as a query of its
 * own for the page's ids, a round trip more; as one IN list it was planned
 * as a scan of every change request on a database never analyzed.
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
    // A staff member's scope (several sub-orgs); see console/scope-rules.ts.
    scope.subOrgIds ? inArray(table.subOrgId, scope.subOrgIds) : undefined,
  );
}

export type PendingApprovalPage = Pick<PendingApprovals, 'items' | 'hasNext'>;
export type PendingApprovalCounts = Pick<PendingApprovals, 'totalCount' | 'actionableCount'>;

/**
 * A page row's proposer as the backend names one: an API user by its name; a
 * staff member (or the anonymous creator) by id, for the console to name;
 * null when the row does not say who (a bank account not made by an API
 * client: the console then looks its creator id up among its members).
 */
function initiatorOf(
  createdById: string | null,
  createdByType: string | null,
  apiUserName: string | null,
): PendingApprovalInitiator {
  if (!createdById) return null;
  if (apiUserName !== null) return { type: 'API_USER', id: createdById, name: apiUserName };
  return createdByType ? { type: createdByType, id: createdById, name: null } : null;
}

/** The API user that created a row of `table`, joined for its name: api_users is one row per client. */
const byApiUser = (table: Table, orgId: string) =>
  and(eq(apiUsers.id, table.createdById), eq(apiUsers.orgId, orgId));

/** The two reads of a page: each kind's first `limit + 1` rows after the cursor's position. */
export function pageQueries(db: Database, orgId: string, query: PendingApprovalsQuery) {
  const where = (table: Table, kind: Kind) =>
    and(
      waiting(table, orgId, query),
      query.after ? afterPosition(table, kind, query.after) : undefined,
    );
  return {
    transactions: db
      .select({ row: transactions, apiUserName: apiUsers.name })
      .from(transactions)
      .leftJoin(apiUsers, byApiUser(transactions, orgId))
      .where(where(transactions, 'TRANSACTION'))
      .orderBy(...newestFirst(transactions))
      .limit(query.limit + 1),
    bankAccounts: db
      .select({ row: bankAccounts, apiUserName: apiUsers.name })
      .from(bankAccounts)
      .leftJoin(apiUsers, byApiUser(bankAccounts, orgId))
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
    if (tx && (!account || tx.row.createdAt.getTime() >= account.row.createdAt.getTime())) {
      merged.push({
        kind: 'TRANSACTION',
        transaction: toWireTransaction(tx.row),
        initiator: initiatorOf(tx.row.createdById, tx.row.createdByType, tx.apiUserName),
      });
      t += 1;
    } else if (account) {
      merged.push({
        kind: 'BANK_ACCOUNT',
        bankAccount: toWireBankAccount(account.row),
        initiator: initiatorOf(account.row.createdById, null, account.apiUserName),
      });
      a += 1;
    }
  }
  return { items: merged.slice(0, query.limit), hasNext: merged.length > query.limit };
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
export const PENDING_PAGE_TABLES = [transactions, bankAccounts, apiUsers];
