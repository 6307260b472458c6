import { and, eq, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../../db/client.ts';
import {
  apiUsers,
  bankAccounts,
  changeRequests,
  contacts,
  transactions,
} from '../../../db/schema/sandbox.ts';
import type {
  PendingApproval,
  PendingApprovalInitiator,
  PendingApprovalPosition,
  PendingApprovals,
  PendingApprovalsQuery,
} from '../port.ts';
import { after, newestFirst } from '../../../custody/sandbox/keyset.ts';
import {
  toWireBankAccount,
  toWireContact,
  toWireTransaction,
} from '../../../custody/sandbox/mappers.ts';

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

/** The columns a kind is ordered by: its row's time and id (a contact's: its change request's time). */
type OrderColumns = { createdAt: PgColumn; id: PgColumn };

/** Rows of `kind` strictly after `position` in the inbox's order. */
function afterPosition(
  columns: OrderColumns,
  kind: Kind,
  position: PendingApprovalPosition,
): SQL | undefined {
  if (kind === position.kind) return after(columns, position);
  // At one instant the kinds come in descending order: TRANSACTION, CONTACT, BANK_ACCOUNT.
  return kind < position.kind
    ? lte(columns.createdAt, position.createdAt)
    : lt(columns.createdAt, position.createdAt);
}

/** A contact waits while a change request about it does: its proposal or an asset-list change. */
const CONTACT_ORDER: OrderColumns = {
  createdAt: changeRequests.createdAt,
  id: changeRequests.entityId,
};

function contactsWaiting(orgId: string, scope: PendingApprovalsQuery): SQL | undefined {
  return and(
    eq(changeRequests.orgId, orgId),
    eq(changeRequests.entityType, 'CONTACT'),
    eq(changeRequests.status, 'PENDING'),
    scope.subOrgId ? eq(contacts.subOrgId, scope.subOrgId) : undefined,
    scope.subOrgIds ? inArray(contacts.subOrgId, scope.subOrgIds) : undefined,
  );
}

const contactOfRequest = (orgId: string) =>
  and(eq(contacts.id, changeRequests.entityId), eq(contacts.orgId, orgId));

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
export type PendingApprovalCounts = Pick<
  PendingApprovals,
  'totalCount' | 'actionableCount' | 'youApprovedCount' | 'oldestNotTheirsAt'
>;

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

/** The reads of a page: each kind's first `limit + 1` rows after the cursor's position. */
export function pageQueries(db: Database, orgId: string, query: PendingApprovalsQuery) {
  const where = (table: Table, kind: Kind) =>
    and(
      waiting(table, orgId, query),
      query.after ? afterPosition(table, kind, query.after) : undefined,
    );
  const contactsPage = db
    .select({ request: changeRequests, row: contacts, apiUserName: apiUsers.name })
    .from(changeRequests)
    .innerJoin(contacts, contactOfRequest(orgId))
    .leftJoin(apiUsers, and(eq(apiUsers.id, changeRequests.createdById), eq(apiUsers.orgId, orgId)))
    .where(
      and(
        contactsWaiting(orgId, query),
        query.after ? afterPosition(CONTACT_ORDER, 'CONTACT', query.after) : undefined,
      ),
    )
    .orderBy(...newestFirst(CONTACT_ORDER))
    .limit(query.limit + 1);
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
    contacts: contactsPage,
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
  const [txRows, accountRows, contactRows] = await Promise.all([
    reads.transactions,
    reads.bankAccounts,
    reads.contacts,
  ]);
  const runs: Array<Array<{ at: number; kind: Kind; item: () => PendingApproval }>> = [
    txRows.map((tx) => ({
      at: tx.row.createdAt.getTime(),
      kind: 'TRANSACTION' as const,
      item: () => ({
        kind: 'TRANSACTION' as const,
        transaction: toWireTransaction(tx.row),
        initiator: initiatorOf(tx.row.createdById, tx.row.createdByType, tx.apiUserName),
      }),
    })),
    contactRows.map(({ request, row, apiUserName }) => ({
      at: request.createdAt.getTime(),
      kind: 'CONTACT' as const,
      item: () => ({
        kind: 'CONTACT' as const,
        contact: request.proposedChange
          ? { ...toWireContact(row), pendingAssetList: request.proposedChange.assetList }
          : toWireContact(row),
        requestedAt: request.createdAt.toISOString(),
        requestedById: request.createdById,
        initiator: initiatorOf(request.createdById, request.createdByType, apiUserName),
      }),
    })),
    accountRows.map((account) => ({
      at: account.row.createdAt.getTime(),
      kind: 'BANK_ACCOUNT' as const,
      item: () => ({
        kind: 'BANK_ACCOUNT' as const,
        bankAccount: toWireBankAccount(account.row),
        initiator: initiatorOf(account.row.createdById, null, account.apiUserName),
      }),
    })),
  ];

  // Newest-first runs merged: at one instant the kinds come in descending order. Within a
  // kind the database's order stands (ids compare by its collation, as the keyset does).
  const merged: PendingApproval[] = [];
  const heads = runs.map(() => 0);
  while (merged.length < take) {
    let best = -1;
    runs.forEach((run, r) => {
      const head = run[heads[r] ?? 0];
      const current = best >= 0 ? runs[best]?.[heads[best] ?? 0] : undefined;
      if (
        head &&
        (!current || head.at > current.at || (head.at === current.at && head.kind > current.kind))
      )
        best = r;
    });
    const next = best >= 0 ? runs[best]?.[heads[best] ?? 0] : undefined;
    if (!next) break;
    merged.push(next.item());
    heads[best] = (heads[best] ?? 0) + 1;
  }
  return { items: merged.slice(0, query.limit), hasNext: merged.length > query.limit };
}

/** The query's scope and creator: what the counts depend on (not its cursor or limit). */
export function countsKey(query: PendingApprovalsQuery) {
  return {
    subOrgId: query.subOrgId,
    subOrgIds: query.subOrgIds,
    creatorId: query.creatorId,
    decidedIds: query.decidedIds ? [...query.decidedIds].sort() : undefined,
    withOldest: query.withOldest,
  };
}

export async function pendingApprovalCounts(
  db: Database,
  orgId: string | null,
  query: PendingApprovalsQuery,
): Promise<PendingApprovalCounts> {
  const oldestAsked = query.withOldest ? { oldestNotTheirsAt: null } : {};
  if (!orgId) return { totalCount: 0, actionableCount: 0, youApprovedCount: 0, ...oldestAsked };
  const decided = query.decidedIds?.length ? [...query.decidedIds] : null;
  const notMine = (createdBy: PgColumn) =>
    query.creatorId ? sql`${createdBy} is distinct from ${query.creatorId}` : sql`true`;
  // Theirs to decide: not proposed by them, not already approved by them.
  const actionable = (createdBy: PgColumn, id: PgColumn) =>
    decided
      ? sql<number>`count(*) filter (where ${notMine(createdBy)} and not ${inArray(id, decided)})::int`
      : sql<number>`count(*) filter (where ${notMine(createdBy)})::int`;
  // Approved by them and waiting for others: neither theirs to decide nor theirs.
  const approved = (id: PgColumn) =>
    decided
      ? sql<number>`count(*) filter (where ${inArray(id, decided)})::int`
      : sql<number>`0::int`;
  // The oldest they did not propose, in the same pass over the waiting rows; as epoch
  // milliseconds, which every driver answers as a number (an aggregate's timestamp comes
  // back as a string or a Date, and in the session's zone, as the driver likes).
  const oldest = (createdBy: PgColumn, createdAt: PgColumn) =>
    query.withOldest
      ? sql<
          number | null
        >`(extract(epoch from min(${createdAt}) filter (where ${notMine(createdBy)})) * 1000)::float8`
      : sql<null>`null`;
  type Row = { total: number; actionable: number; approved: number; oldest: number | null };
  const counted = (row: Row | undefined) => ({
    total: row?.total ?? 0,
    actionable: row?.actionable ?? 0,
    approved: row?.approved ?? 0,
    oldest: row?.oldest ?? null,
  });
  const count = async (table: Table) => {
    const [row] = await db
      .select({
        total: sql<number>`count(*)::int`,
        actionable: actionable(table.createdById, table.id),
        approved: approved(table.id),
        oldest: oldest(table.createdById, table.createdAt),
      })
      .from(table)
      .where(waiting(table, orgId, query));
    return counted(row);
  };
  const countContacts = async () => {
    const [row] = await db
      .select({
        total: sql<number>`count(*)::int`,
        actionable: actionable(changeRequests.createdById, changeRequests.entityId),
        approved: approved(changeRequests.entityId),
        oldest: oldest(changeRequests.createdById, changeRequests.createdAt),
      })
      .from(changeRequests)
      .innerJoin(contacts, contactOfRequest(orgId))
      .where(contactsWaiting(orgId, query));
    return counted(row);
  };
  const kinds = await Promise.all([count(transactions), count(bankAccounts), countContacts()]);
  const total = (figure: 'total' | 'actionable' | 'approved') =>
    kinds.reduce((n, kind) => n + kind[figure], 0);
  const counts = {
    totalCount: total('total'),
    actionableCount: total('actionable'),
    youApprovedCount: total('approved'),
  };
  if (!query.withOldest) return counts;
  const times = kinds.flatMap((kind) => (kind.oldest === null ? [] : [kind.oldest]));
  return {
    ...counts,
    oldestNotTheirsAt: times.length > 0 ? new Date(Math.min(...times)) : null,
  };
}

/** The tables the counts read, for the read cache (db/read-cache.ts). */
export const PENDING_COUNT_TABLES = [transactions, bankAccounts, changeRequests, contacts];

/** The tables a page reads, for the read cache (db/read-cache.ts): a stale one would name the wrong initiator. */
export const PENDING_PAGE_TABLES = [...PENDING_COUNT_TABLES, apiUsers];
