import { and, eq, gte, lte, sql } from 'drizzle-orm';
import { ERROR_CODES } from '#contract/common.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { Database } from '../../../db/client.ts';
import { transactions } from '../../../db/schema/sandbox.ts';
import { ApiError } from '#contract/api-error.ts';
import type { TransactionListQuery } from '../port.ts';
import type { Page } from '#contract/common.ts';
import { transactionPage } from '../../../custody/sandbox/transaction-page.ts';
import {
  transactionDetail,
  type TransactionDetailExtras,
} from '../../../custody/sandbox/transaction-detail.ts';

/** Reads of endpoints 4 and 5 over the sandbox's tables. */

// Valid ISO timestamps PostgreSQL cannot store (year 0000, say) would fail the
// query; no row lies outside these bounds, so clamping keeps the meaning.
const EARLIEST = new Date('1900-01-01T00:00:00.000Z');
const LATEST = new Date('9999-12-31T23:59:59.999Z');
function storableTime(iso: string): Date {
  const time = new Date(iso);
  return time < EARLIEST ? EARLIEST : time > LATEST ? LATEST : time;
}

export async function listTransactions(
  db: Database,
  orgId: string | null,
  query: TransactionListQuery,
): Promise<Page<Transaction>> {
  return transactionPage(db, orgId, query, [
    query.status ? eq(transactions.status, query.status) : undefined,
    query.category ? eq(transactions.category, query.category) : undefined,
    query.vaultId ? eq(transactions.vaultId, query.vaultId) : undefined,
    query.asset ? eq(transactions.asset, query.asset) : undefined,
    query.externalId ? eq(transactions.externalId, query.externalId) : undefined,
    query.createdAtGte ? gte(transactions.createdAt, storableTime(query.createdAtGte)) : undefined,
    query.createdAtLte ? lte(transactions.createdAt, storableTime(query.createdAtLte)) : undefined,
  ]);
}

/**
 * One transaction, as `transactionDetail` (custody/sandbox/transaction-detail.ts) writes it:
 * the record with its status history, fee tier and replacement links.
 */
export async function getTransaction(
  db: Database,
  orgId: string | null,
  transactionId: string,
): Promise<Transaction & TransactionDetailExtras> {
  const [row] = orgId
    ? await db
        .select()
        .from(transactions)
        .where(and(eq(transactions.orgId, orgId), eq(transactions.id, transactionId)))
        .limit(1)
    : [];
  if (!row)
    throw new ApiError(404, ERROR_CODES.notFound, `No transaction with id "${transactionId}"`);
  return transactionDetail(db, row);
}

/** The status of each of `ids` in the organization (an id it does not hold is left out). */
export async function transactionStatuses(
  db: Database,
  orgId: string | null,
  ids: readonly string[],
): Promise<Map<string, string>> {
  if (!orgId || ids.length === 0) return new Map();
  // One parameter for all the ids (a run has up to 2,000 rows in flight), not one each.
  const rows = await db
    .select({ id: transactions.id, status: transactions.status })
    .from(transactions)
    .where(
      and(
        eq(transactions.orgId, orgId),
        sql`${transactions.id} in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`,
      ),
    );
  return new Map(rows.map((r) => [r.id, r.status]));
}
