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
 * Who proposed each item is read with it, in the same query: a subquery per
 * row returned (limit + 1 of them) finds the row's pending change request by
 * `change_requests_entity_idx`, with the API user's name where an API client
 * proposed it — the record a transaction's or bank account's history names
 * (approvals/history.ts). A query of its own for the page's ids cost a round
 * trip more per page, and as one IN list it was planned as a scan of every
 * change request on a database never analyzed.
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

/**
 * Who proposed the row of `table` the query is on: its PENDING change request's
 * creator as `[type, id, API user's name]`, or null. One index lookup per row.
 */
function proposerOf(table: Table, orgId: string) {
  // Aliased and qualified by hand: a single-table select writes its own columns unqualified.
  return sql<unknown>`(
    select json_build_array(cr.created_by_type, cr.created_by_id, au.name)
    from ${changeRequests} as cr
    left join ${apiUsers} as au on cr.created_by_type = 'API_USER'
      and au.id = cr.created_by_id and au.org_id = ${orgId}
    where cr.entity_id = ${table}.${sql.identifier('id')} and cr.org_id = ${orgId}
      and cr.status = 'PENDING'
    limit 1
  )`;
}

/** `proposerOf`'s answer as the backend names an initiator (json arrives parsed or as text, by driver). */
function initiatorOf(value: unknown): PendingApprovalInitiator {
  const parsed: unknown = typeof value === 'string' ? JSON.parse(value) : value;
  if (!Array.isArray(parsed) || typeof parsed[1] !== 'string') return null;
  const [type, id, name] = parsed as [unknown, string, unknown];
  return {
    type: typeof type === 'string' ? type : 'UNKNOWN',
    id,
    name: typeof name === 'string' ? name : null,
  };
}

/** The two reads of a page: each kind's first `limit + 1` rows after the cursor's position. */
export function pageQueries(db: Database, orgId: string, query: PendingApprovalsQuery) {
  const where = (table: Table, kind: Kind) =>
    and(
      waiting(table, orgId, query),
      query.after ? afterPosition(table, kind, query.after) : undefined,
    );
  return {
    transactions: db
      .select({ row: transactions, proposer: proposerOf(transactions, orgId) })
      .from(transactions)
      .where(where(transactions, 'TRANSACTION'))
      .orderBy(...newestFirst(transactions))
      .limit(query.limit + 1),
    bankAccounts: db
      .select({ row: bankAccounts, proposer: proposerOf(bankAccounts, orgId) })
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
    if (tx && (!account || tx.row.createdAt.getTime() >= account.row.createdAt.getTime())) {
      merged.push({
        kind: 'TRANSACTION',
        transaction: toWireTransaction(tx.row),
        initiator: initiatorOf(tx.proposer),
      });
      t += 1;
    } else if (account) {
      merged.push({
        kind: 'BANK_ACCOUNT',
        bankAccount: toWireBankAccount(account.row),
        initiator: initiatorOf(account.proposer),
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
export const PENDING_PAGE_TABLES = [transactions, bankAccounts, changeRequests, apiUsers];
