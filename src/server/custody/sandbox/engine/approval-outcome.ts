import { eq } from 'drizzle-orm';
import { transactions } from '../../../db/schema/sandbox.ts';
import { moveBalances } from './balances.ts';
import { readPlan } from './plan.ts';
import { wakeReplacedOriginal } from './steps.ts';
import { transition, type Executor } from './transitions.ts';

/**
 * What an approval decision does to the transaction it approves. The approval
 * endpoint calls these inside the database transaction that records the
 * decision on the change request, so the two can never disagree.
 *
 * Both return false when the transaction is no longer PENDING (decided
 * already, or a concurrent decision won the race) and then change nothing.
 */

export interface ApproveTransactionInput {
  transactionId: string;
  at: Date;
}

export async function approveTransaction(
  db: Executor,
  input: ApproveTransactionInput,
): Promise<boolean> {
  // nextStepAt = at: the simulator picks it up on its next pass and signs it.
  return transition(db, {
    transactionId: input.transactionId,
    from: 'PENDING',
    to: 'APPROVED',
    at: input.at,
    nextStepAt: input.at,
  });
}

export interface DeclineTransactionInput {
  transactionId: string;
  at: Date;
  /** The approver's reason, kept as the transaction's `error` so the console can show why. */
  reason?: string | null;
}

export async function declineTransaction(
  db: Executor,
  input: DeclineTransactionInput,
): Promise<boolean> {
  const reason = input.reason?.trim();
  const declined = await transition(db, {
    transactionId: input.transactionId,
    from: 'PENDING',
    to: 'DECLINED',
    at: input.at,
    nextStepAt: null,
    patch: reason ? { error: `declined: ${reason}` } : {},
  });
  if (declined) {
    // A declined replacement never reaches the chain: the original it would have replaced may land again.
    const [row] = await db
      .select({
        replacesTransactionId: transactions.replacesTransactionId,
        simulation: transactions.simulation,
      })
      .from(transactions)
      .where(eq(transactions.id, input.transactionId));
    if (row) await wakeReplacedOriginal(db, row, input.at);
    // What was held while it waited (an off-ramp holds from its creation) is free again.
    const holds = readPlan(row?.simulation)?.holds;
    if (holds?.length) await moveBalances(db, input.at, { release: holds });
  }
  return declined;
}
