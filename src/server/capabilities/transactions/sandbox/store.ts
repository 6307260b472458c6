import { and, asc, eq, gte, lte } from 'drizzle-orm';
import { ERROR_CODES } from '#contract/common.ts';
import type { TransactionStatus } from '#contract/enums.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { Database } from '../../../db/client.ts';
import { transactionStatusEvents, transactions } from '../../../db/schema/sandbox.ts';
import { ApiError } from '#contract/api-error.ts';
import type { TransactionListQuery } from '../../../custody/backend.ts';
import type { Page } from '#contract/common.ts';
import { transactionPage } from '../../../custody/sandbox/transaction-page.ts';
import { toWireTransaction } from '../../../custody/sandbox/mappers.ts';

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

interface StatusHistoryEntry {
  status: TransactionStatus;
  at: string;
}

/** A replacement of a transaction (endpoint 6), as the original's page links to it. */
interface ReplacementLink {
  id: string;
  status: TransactionStatus;
  createdAt: string;
}

/** What the sandbox adds to a single transaction, beyond the description's fields. */
export interface TransactionDetailExtras {
  statusHistory: StatusHistoryEntry[];
  // gasParams, the tier the fee was chosen with, is the contract's Transaction field.
  /** On a replacement: the transaction it replaces. */
  replacesTransactionId?: string;
  /** On an original: every replacement made of it, oldest first. */
  replacements: ReplacementLink[];
}

/**
 * One transaction. The sandbox adds `statusHistory` (every status it has
 * held, oldest first) for the console's timeline, the fee tier, and the
 * replacement links both ways, so each page can link to the other; clients
 * of the API ignore fields they do not know.
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

  const [events, replacements] = await Promise.all([
    db
      .select({ status: transactionStatusEvents.status, at: transactionStatusEvents.at })
      .from(transactionStatusEvents)
      .where(eq(transactionStatusEvents.transactionId, row.id))
      .orderBy(asc(transactionStatusEvents.at), asc(transactionStatusEvents.id)),
    db
      .select({
        id: transactions.id,
        status: transactions.status,
        createdAt: transactions.createdAt,
      })
      .from(transactions)
      .where(and(eq(transactions.orgId, row.orgId), eq(transactions.replacesTransactionId, row.id)))
      .orderBy(asc(transactions.createdAt), asc(transactions.id)),
  ]);

  return {
    ...toWireTransaction(row),
    statusHistory: events.map((e) => ({ status: e.status, at: e.at.toISOString() })),
    ...(row.feeTier ? { gasParams: { feeTier: row.feeTier } } : {}),
    ...(row.replacesTransactionId ? { replacesTransactionId: row.replacesTransactionId } : {}),
    replacements: replacements.map((r) => ({
      id: r.id,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
    })),
  };
}
