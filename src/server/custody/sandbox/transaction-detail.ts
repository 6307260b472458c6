import { and, asc, eq } from 'drizzle-orm';
import type { TransactionStatus } from '#contract/enums.ts';
import type { Transaction } from '#contract/transaction.ts';
import { transactionStatusEvents, transactions } from '../../db/schema/sandbox.ts';
import type { Executor } from './engine/transitions.ts';
import { toWireTransaction, type TransactionRow } from './mappers.ts';

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
  // gasParams, the tier the fee was chosen with, is on every record (mappers.ts).
  /** On a replacement: the transaction it replaces. */
  replacesTransactionId?: string;
  /** On an original: every replacement made of it, oldest first. */
  replacements: ReplacementLink[];
}

/**
 * One transaction as `GET …/transactions/{id}/` answers it: the wire record,
 * plus `statusHistory` (every status it has held, oldest first) for the
 * console's timeline, and the replacement links both ways, so
 * each page can link to the other; clients of the API ignore fields they do
 * not know. Shared by that read and the webhooks' outbox, which sends the
 * transaction as it is at the change (inside the change's own database
 * transaction: `db` may be one).
 */
export async function transactionDetail(
  db: Executor,
  row: TransactionRow,
): Promise<Transaction & TransactionDetailExtras> {
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
    ...(row.replacesTransactionId ? { replacesTransactionId: row.replacesTransactionId } : {}),
    replacements: replacements.map((r) => ({
      id: r.id,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
    })),
  };
}
