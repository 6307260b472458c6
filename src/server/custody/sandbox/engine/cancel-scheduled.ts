import { and, eq } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { Database } from '../../../db/client.ts';
import { changeRequests, transactions } from '../../../db/schema/sandbox.ts';
import type { CustodyActor } from '../../backend.ts';
import type { TransactionRow } from '../mappers.ts';
import { moveBalances } from './balances.ts';
import { readPlan } from './plan.ts';
import { transition } from './transitions.ts';

/**
 * Calling off a scheduled transfer (created with `executeAt`) before its
 * time. The custody API has no cancel, and its statuses no "cancelled": the
 * transfer ends FAILED, its `error` saying who cancelled it and when, as a
 * replaced original ends FAILED naming its replacement. Whether waiting for
 * approval or approved, it has not been signed (steps.ts holds it in
 * APPROVED until its time), so nothing has moved and nothing is left held.
 * Its waiting change request, if any, is closed with it, CANCELLED rather
 * than REJECTED (no approver declined it), so no approver is asked about it
 * again and the activity log reports no rejection. The row is locked while this is decided: the
 * simulator's step and a decision wait, and find it FAILED.
 */

export interface CancelScheduledInput {
  orgId: string;
  actor: CustodyActor | undefined;
  transactionId: string;
  /** Who cancels it, as the transaction's error will name them. */
  by: string;
  now: Date;
}

const conflict = (code: string, message: string) => new ApiError(409, code, message);

export async function cancelScheduled(
  db: Database,
  input: CancelScheduledInput,
): Promise<TransactionRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(transactions)
      .where(and(eq(transactions.orgId, input.orgId), eq(transactions.id, input.transactionId)))
      .for('update');
    if (!row)
      throw new ApiError(
        404,
        ERROR_CODES.notFound,
        `No transaction with id "${input.transactionId}"`,
      );
    const plan = readPlan(row.simulation);
    const executeAt = plan?.executeAt;
    if (!executeAt)
      throw conflict(
        ERROR_CODES.notScheduled,
        `transaction ${row.id} was not scheduled (it has no executeAt), so there is no schedule to cancel`,
      );
    if (row.status !== 'PENDING' && row.status !== 'APPROVED')
      throw conflict(
        ERROR_CODES.scheduleDue,
        `transaction ${row.id} is ${row.status}: a scheduled transfer can be cancelled only before it runs`,
      );
    if (input.now.getTime() >= new Date(executeAt).getTime())
      throw conflict(
        ERROR_CODES.scheduleDue,
        `transaction ${row.id} was scheduled for ${executeAt}; that time has come, so it can no longer be cancelled`,
      );

    const at = input.now;
    await transition(tx, {
      transactionId: row.id,
      from: row.status,
      to: 'FAILED',
      at,
      nextStepAt: null,
      patch: {
        error: `cancelled by ${input.by} before its scheduled time (${executeAt}), at ${at.toISOString()}`,
      },
    });
    if (row.status === 'PENDING')
      await tx
        .update(changeRequests)
        .set({
          status: 'CANCELLED',
          reason: `cancelled by ${input.by} before its scheduled time`,
          decidedById: input.actor?.id ?? null,
          decidedByType: input.actor?.type ?? null,
          decidedAt: at,
          updatedAt: at,
        })
        .where(
          and(
            eq(changeRequests.orgId, input.orgId),
            eq(changeRequests.entityId, row.id),
            eq(changeRequests.status, 'PENDING'),
          ),
        );
    // Nothing is held before signing today; should a plan ever hold earlier, it is freed here.
    if (plan.holds?.length) await moveBalances(tx, at, { release: plan.holds });
    const [ended] = await tx.select().from(transactions).where(eq(transactions.id, row.id));
    if (!ended) throw new Error(`transaction ${row.id} vanished while being cancelled`);
    return ended;
  });
}
