import { and, eq } from 'drizzle-orm';
import type { TransactionStatus } from '#contract/enums.ts';
import type { Operation } from '#contract/transaction.ts';
import {
  recordStatusChange,
  type StatusChange,
} from '../../../capabilities/webhooks/sandbox/outbox.ts';
import type { Database } from '../../../db/client.ts';
import { transactionStatusEvents, transactions } from '../../../db/schema/sandbox.ts';

/**
 * The allowed edges of the transaction lifecycle. Every status change in the
 * sandbox goes through `transition`, so the timeline and this table can
 * never disagree. Terminal statuses have no way out.
 */
export const ALLOWED_TRANSITIONS: Readonly<
  Record<TransactionStatus, readonly TransactionStatus[]>
> = {
  DRAFT: ['PENDING'],
  PENDING: ['APPROVED', 'DECLINED', 'FAILED'],
  APPROVED: ['SIGNED', 'FAILED'],
  SIGNED: ['SUBMITTED', 'FAILED'],
  SUBMITTED: ['WAITING_CONFIRMATION', 'FAILED'],
  WAITING_CONFIRMATION: ['COMPLETED', 'FAILED'],
  COMPLETED: [],
  FAILED: [],
  DECLINED: [],
};

function isAllowedTransition(from: TransactionStatus, to: TransactionStatus): boolean {
  return ALLOWED_TRANSITIONS[from].includes(to);
}

/** A database or an open database transaction: both run queries the same way. */
export type Executor = Pick<Database, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

type TransactionRowPatch = Partial<typeof transactions.$inferInsert>;

export interface TransitionInput {
  transactionId: string;
  from: TransactionStatus;
  to: TransactionStatus;
  at: Date;
  /** When the simulator should move it next; null to stop (terminal, or waiting for a decision). */
  nextStepAt: Date | null;
  /** Other columns to set in the same statement (txHash, nonce, error, operations…). */
  patch?: TransactionRowPatch;
  /**
   * The operations before a patch that changes them (the caller holds the
   * row): each whose status the patch changes is a webhook of its own. Read
   * here when a patch changes them and this is not given.
   */
  operationsBefore?: readonly Operation[] | null;
}

/**
 * Moves one transaction from `from` to `to` and records the event, only if it
 * is still in `from`: a second runner, a restart or a concurrent decision
 * that lost the race gets `false` and changes nothing. Call it inside the
 * database transaction that makes the step's other effects (balances), so a
 * crash can never keep one without the other. The change's webhooks are
 * queued in it too (an outbox: capabilities/webhooks/sandbox/outbox.ts).
 */
export async function transition(db: Executor, input: TransitionInput): Promise<boolean> {
  if (!isAllowedTransition(input.from, input.to)) {
    throw new Error(`transaction lifecycle has no edge ${input.from} → ${input.to}`);
  }
  const operationsBefore =
    input.operationsBefore !== undefined || input.patch?.operations === undefined
      ? input.operationsBefore
      : (
          await db
            .select({ operations: transactions.operations })
            .from(transactions)
            .where(eq(transactions.id, input.transactionId))
        )[0]?.operations;
  const moved = await db
    .update(transactions)
    .set({
      ...input.patch,
      status: input.to,
      updatedAt: input.at,
      nextStepAt: input.nextStepAt,
    })
    .where(and(eq(transactions.id, input.transactionId), eq(transactions.status, input.from)))
    .returning({ orgId: transactions.orgId });
  const [row] = moved;
  if (!row) return false;
  const event = { transactionId: input.transactionId, status: input.to, at: input.at };
  const batch = deferred.get(db);
  if (batch) batch.push(event);
  else await db.insert(transactionStatusEvents).values(event);
  // The webhooks' outbox, in this same database transaction (capabilities/webhooks/).
  await recordStatusChange(db, {
    transactionId: input.transactionId,
    orgId: row.orgId,
    at: input.at,
    statusChanged: true,
    operationsBefore,
    // An event's payload is the transaction with its status history: the batch's events first.
    ...(batch ? { beforeRead: () => writeDeferred(db) } : {}),
  });
  return true;
}

/**
 * The webhooks of operations that moved while the transaction's status
 * stayed (a ramp's deposit arriving), in the caller's database transaction.
 * Here beside `transition` so a capability's lifecycle (capabilities/ramps/sandbox/)
 * queues them without reaching into the webhooks' sandbox.
 */
export function recordOperationsMoved(
  db: Executor,
  change: Omit<StatusChange, 'statusChanged' | 'beforeRead'>,
): Promise<void> {
  return recordStatusChange(db, { ...change, statusChanged: false });
}

type StatusEvent = typeof transactionStatusEvents.$inferInsert;

/** Status events of a batch of steps not written yet, by the database transaction taking them. */
const deferred = new WeakMap<Executor, StatusEvent[]>();

async function writeDeferred(tx: Executor): Promise<void> {
  const batch = deferred.get(tx);
  if (!batch || batch.length === 0) return;
  const events = batch.splice(0);
  await tx.insert(transactionStatusEvents).values(events);
}

/**
 * Keeps the status events of the transitions run through `tx` until
 * `write()`, which inserts them in one statement, in the order they were
 * made (the simulator's batches: one statement a batch instead of one a
 * step). Call `write()` before the database transaction ends; whatever
 * reads a transaction's history in between (the webhooks' outbox) has them
 * written first. A transaction rolled back takes its kept events with it.
 */
export function deferStatusEvents(tx: Executor): { write(): Promise<void> } {
  deferred.set(tx, []);
  return {
    async write() {
      await writeDeferred(tx);
      deferred.delete(tx);
    },
  };
}

/**
 * A row moved from the status it was read in to `to`, its operations as read
 * kept as the "before" of the change: the ramp's and the swap's lifecycles,
 * which step a row they locked.
 */
export function moveRow(
  tx: Executor,
  row: { id: string; status: TransactionStatus; operations: Operation[] | null },
  at: Date,
  to: TransactionStatus,
  nextStepAt: Date | null,
  patch: TransitionInput['patch'],
): Promise<boolean> {
  return transition(tx, {
    transactionId: row.id,
    from: row.status,
    to,
    at,
    nextStepAt,
    operationsBefore: row.operations,
    ...(patch ? { patch } : {}),
  });
}
