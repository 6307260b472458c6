import { and, eq, notInArray } from 'drizzle-orm';
import { chainInfo, CHAINS } from '#contract/chains.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { TERMINAL_TRANSACTION_STATUSES } from '#contract/enums.ts';
import { replacementRefusal } from '#contract/replacement.ts';
import type { Database } from '../../../db/client.ts';
import { transactions } from '../../../db/schema/sandbox.ts';
import { ApiError } from '#contract/api-error.ts';
import type { CustodyActor } from '../../backend.ts';
import { estimateFees, replacementFeeFor } from '../fee-model.ts';
import type { TransactionRow } from '../mappers.ts';
import { insertPendingTransaction } from './create.ts';
import { readPlan } from './plan.ts';
import { ENGINE_CODES } from './problems.ts';

/**
 * Endpoint 6: replace a SUBMITTED transaction stuck on the chain with a new
 * PENDING one that carries the same nonce and pays at least 10% more. The
 * original's row is locked while the preconditions are checked and the
 * replacement inserted, so two replace calls (or the simulator moving it on)
 * cannot both win.
 */

export interface ReplaceInput {
  orgId: string;
  actor: CustodyActor | undefined;
  transactionId: string;
  now: Date;
}

const replaceable = () =>
  CHAINS.filter((c) => c.supportsReplacement)
    .map((c) => c.value)
    .join(', ');

export async function replaceTransaction(
  db: Database,
  input: ReplaceInput,
): Promise<TransactionRow> {
  return db.transaction(async (tx) => {
    const [original] = await tx
      .select()
      .from(transactions)
      .where(and(eq(transactions.orgId, input.orgId), eq(transactions.id, input.transactionId)))
      .for('update');
    if (!original)
      throw new ApiError(
        404,
        ERROR_CODES.notFound,
        `No transaction with id "${input.transactionId}"`,
      );

    // Never for a ramp (its provider goes on with the original) or someone else's transaction.
    const refusal = replacementRefusal(original);
    if (refusal) throw refusal;
    const chain = chainInfo(original.blockChain);
    if (!chain?.supportsReplacement)
      throw new ApiError(
        400,
        ENGINE_CODES.replacementNotSupported,
        `${original.blockChain} does not support replacing a transaction (chains that do: ${replaceable()})`,
        [
          {
            field: 'transactionId',
            message: `${original.blockChain} does not support replacement`,
          },
        ],
      );
    // State conflicts answer 400 with their code: the Python SDK types a 400, a 409 it does not.
    if (original.status !== 'SUBMITTED')
      throw new ApiError(
        400,
        ENGINE_CODES.notReplaceableStatus,
        `transaction ${original.id} is ${original.status}; only a SUBMITTED transaction can be replaced`,
        [{ field: 'transactionId', message: `is ${original.status}, not SUBMITTED` }],
      );
    const [active] = await tx
      .select({ id: transactions.id, status: transactions.status })
      .from(transactions)
      .where(
        and(
          eq(transactions.replacesTransactionId, original.id),
          notInArray(transactions.status, [...TERMINAL_TRANSACTION_STATUSES]),
        ),
      )
      .limit(1);
    if (active)
      throw new ApiError(
        400,
        ENGINE_CODES.replacementExists,
        `transaction ${original.id} already has an active replacement, ${active.id} (${active.status})`,
        [{ field: 'transactionId', message: `already has an active replacement, ${active.id}` }],
      );

    const plan = readPlan(original.simulation);
    // Shown from the start; signing recomputes it against the market of that moment.
    const fee = replacementFeeFor(
      { amount: original.fees?.amount ?? '0', asset: original.fees?.asset ?? chain.nativeAsset },
      estimateFees({
        blockChain: original.blockChain,
        asset: original.asset ?? chain.nativeAsset,
        amount: original.amount ?? '0',
        now: input.now,
      }),
    );
    return insertPendingTransaction(tx, {
      orgId: input.orgId,
      actor: input.actor,
      now: input.now,
      values: {
        category: original.category,
        subCategory: original.subCategory,
        blockChain: original.blockChain,
        asset: original.asset,
        amount: original.amount,
        amountInUsd: original.amountInUsd,
        vaultId: original.vaultId,
        subOrgId: original.subOrgId,
        source: original.source,
        destination: original.destination,
        memo: original.memo,
        feeTier: 'HIGH',
        feePayerId: original.feePayerId,
        resourceType: original.resourceType,
        contractData: original.contractData,
        replacesTransactionId: original.id,
        nonce: original.nonce,
        fees: {
          amount: fee.expectedFeeInAsset,
          asset: fee.asset,
          amountInFiat: fee.expectedFeeInUSD,
        },
        // The same movements; its own holds are taken when it is signed.
        simulation: plan
          ? {
              legs: plan.legs,
              feePayer: plan.feePayer,
              ...(plan.revert ? { revert: plan.revert } : {}),
            }
          : null,
      },
    });
  });
}
