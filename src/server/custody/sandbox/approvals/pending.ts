import { and, eq, inArray, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { bankAccounts, transactions } from '../../../db/schema/sandbox.ts';
import type {
  PendingApproval,
  PendingApprovalPosition,
  PendingApprovals,
  PendingApprovalsQuery,
} from '../../backend.ts';
import { after, newestFirst } from '../keyset.ts';
import { toWireBankAccount, toWireTransaction } from '../mappers.ts';

/**
 * The approvals inbox over the sandbox's tables: PENDING transactions and
 * bank accounts in one newest-first order (createdAt, then kind, then id, all
 * descending). A page reads at most `limit + 1` rows of each table from the
 * position after the cursor (each an index range: `(org, status, createdAt,
 * id)`, or the PENDING-only `(org, subOrg, createdAt, id)` for one sub-org),
 * merges them and keeps `limit`. The counts are COUNT queries over the same
 * indexes: the database counts the waiting rows, none is read out, mapped or
 * sorted (2,000 waiting add about 2 ms on PGlite, bench/approvals-inbox-section.ts).
 */

type Table = typeof transactions | typeof bankAccounts;

/** Rows of `kind` strictly after `position` in the inbox's order. */
function afterPosition(
  table: Table,
  kind: PendingApproval['kind'],
  position: PendingApprovalPosition,
): SQL | undefined {
  if (kind === position.kind) return after(table, position);
  // At one instant a TRANSACTION comes before a BANK_ACCOUNT (kind descending).
  return kind === 'BANK_ACCOUNT'
    ? lte(table.createdAt, position.createdAt)
    : lt(table.createdAt, position.createdAt);
}

function scope(table: Table, orgId: string, query: PendingApprovalsQuery): SQL | undefined {
  return and(
    eq(table.orgId, orgId),
    eq(table.status, 'PENDING'),
    query.subOrgId ? eq(table.subOrgId, query.subOrgId) : undefined,
    // A staff member's scope (several sub-orgs); see console/scoped-backend.ts.
    query.subOrgIds ? inArray(table.subOrgId, query.subOrgIds) : undefined,
  );
}

async function counts(
  db: Database,
  table: Table,
  orgId: string,
  query: PendingApprovalsQuery,
): Promise<{ total: number; actionable: number }> {
  const theirs = query.creatorId
    ? sql<number>`count(*) filter (where ${table.createdById} is distinct from ${query.creatorId})::int`
    : sql<number>`count(*)::int`;
  const [row] = await db
    .select({ total: sql<number>`count(*)::int`, actionable: theirs })
    .from(table)
    .where(scope(table, orgId, query));
  return { total: row?.total ?? 0, actionable: row?.actionable ?? 0 };
}

const EMPTY: PendingApprovals = { items: [], hasNext: false, totalCount: 0, actionableCount: 0 };

export async function pendingApprovals(
  db: Database,
  orgId: string | null,
  query: PendingApprovalsQuery,
): Promise<PendingApprovals> {
  if (!orgId) return EMPTY;
  const take = query.limit + 1;
  const where = (table: Table, kind: PendingApproval['kind']) =>
    and(
      scope(table, orgId, query),
      query.after ? afterPosition(table, kind, query.after) : undefined,
    );

  const [txRows, accountRows, txCounts, accountCounts] = await Promise.all([
    db
      .select()
      .from(transactions)
      .where(where(transactions, 'TRANSACTION'))
      .orderBy(...newestFirst(transactions))
      .limit(take),
    db
      .select()
      .from(bankAccounts)
      .where(where(bankAccounts, 'BANK_ACCOUNT'))
      .orderBy(...newestFirst(bankAccounts))
      .limit(take),
    counts(db, transactions, orgId, query),
    counts(db, bankAccounts, orgId, query),
  ]);

  // Two newest-first runs merged: at the same instant a transaction comes first. Within a
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
  return {
    items: merged.slice(0, query.limit),
    hasNext: merged.length > query.limit,
    totalCount: txCounts.total + accountCounts.total,
    actionableCount: txCounts.actionable + accountCounts.actionable,
  };
}
