import { and, eq } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { OperationStatus } from '#contract/enums.ts';
import type { RampRequote } from '#contract/ramp-record.ts';
import type { BalanceChange, Operation, Party } from '#contract/transaction.ts';
import type { Database } from '../../../db/client.ts';
import { transactions } from '../../../db/schema/sandbox.ts';
import type { TransactionRow } from '../../../custody/sandbox/mappers.ts';
import { moveBalances } from '../../../custody/sandbox/engine/balances.ts';
import { movementSourceOf } from '../../../custody/sandbox/engine/movements.ts';
import { newTxHash } from '../../../custody/sandbox/engine/chain-artifacts.ts';
import { readRampPlan, type RampPlan } from './ramp-plan.ts';
import { requoteIfExpired } from './ramp-requote.ts';
import {
  moveRow as move,
  recordOperationsMoved,
  transition,
  type Executor,
} from '../../../custody/sandbox/engine/transitions.ts';

/**
 * A ramp's lifecycle in the simulator (docs/ramps.md). Its three
 * operations run in order, each PENDING → PROCESSING → COMPLETED, over the
 * transaction's statuses:
 *
 * - off-ramp: APPROVED → SIGNED (1, the crypto to the provider, processing)
 *   → SUBMITTED (1 done, txHash; 2, the trade) → WAITING_CONFIRMATION (2
 *   done; 3, the payout to the bank) → COMPLETED (3 done; the vault debited
 *   by the quote's `finalFromAmount`, its hold released);
 * - on-ramp: APPROVED waits for the payer (`depositInstructions` answered);
 *   `mark_deposit_done` → SIGNED → SUBMITTED at once (1, the deposit,
 *   processing; counted received when the simulator next runs, and 2, the
 *   trade, starts) → WAITING_CONFIRMATION (2 done; 3, the crypto to the
 *   vault, with its txHash) → COMPLETED (the vault credited `finalToAmount`).
 *
 * - FX: as an on-ramp, its last step paying the approved bank account (a
 *   WITHDRAW, no txHash); no vault moves.
 *
 * A failure (the memo's `[simulate:ramp-fail]`, at the trade) marks the trade
 * FAILED, what follows CANCELLED and what went before REVERSED, ends the
 * transaction FAILED and releases its hold: nothing moves. Each step lasts a
 * third of the provider's completion time, divided by SANDBOX_TIME_SCALE.
 */

/** The simulator's speed (steps.ts's StepConfig, declared here so the two do not import each other). */
interface StepConfig {
  timeScale: number;
}

/** Is this row a ramp the ramp lifecycle moves (as opposed to a seeded historical one)? */
export function isRampRow(row: Pick<TransactionRow, 'simulation'>): boolean {
  return readRampPlan(row.simulation) !== null;
}

/** The provider as a party of a ramp's operations. */
export function providerParty(provider: string, chain: string): Party {
  return { type: 'EXTERNAL_ADDRESS', name: provider, provider, ...(chain ? { chain } : {}) };
}

function stepMs(plan: RampPlan, config: StepConfig): number {
  return Math.max(1, Math.round((plan.ramp.completionSeconds * 1000) / config.timeScale / 3));
}

/** The operations with some of them moved to new statuses (by sequence). */
function withOps(row: TransactionRow, statuses: Record<number, OperationStatus>): Operation[] {
  return (row.operations ?? []).map((op) => {
    const status = statuses[op.sequence ?? 0];
    return status ? { ...op, status } : op;
  });
}

/** One step of a ramp, inside the database transaction that locked its row (steps.ts's advance). */
export async function advanceRamp(
  tx: Executor,
  row: TransactionRow,
  at: Date,
  config: StepConfig,
): Promise<void> {
  const plan = readRampPlan(row.simulation);
  if (!plan) return;
  const next = new Date(at.getTime() + stepMs(plan, config));
  const offRamp = plan.ramp.kind === 'OFF_RAMP';
  const opStatus = (sequence: number) =>
    row.operations?.find((o) => o.sequence === sequence)?.status;
  const fail = async () => {
    const done = await move(tx, row, at, 'FAILED', null, {
      operations: withOps(row, { 1: 'REVERSED', 2: 'FAILED', 3: 'CANCELLED' }),
      error: plan.ramp.fail,
    });
    if (done) await moveBalances(tx, at, { release: plan.holds });
  };
  switch (row.status) {
    case 'APPROVED': {
      if (!offRamp) {
        // Waits for the payer: mark_deposit_done moves it on.
        await tx.update(transactions).set({ nextStepAt: null }).where(eq(transactions.id, row.id));
        return;
      }
      // The provider is engaged now: never at a rate nobody accepted.
      const priced = await requoteIfExpired(tx, row, at, 'EXECUTION');
      if (priced?.requote.beyondTolerance) {
        const done = await move(tx, priced.row, at, 'FAILED', null, {
          operations: withOps(priced.row, { 1: 'CANCELLED', 2: 'CANCELLED', 3: 'CANCELLED' }),
          error: movedBeyond(priced.requote),
        });
        if (done) await moveBalances(tx, at, { release: plan.holds });
        return;
      }
      const current = priced?.row ?? row;
      await move(tx, current, at, 'SIGNED', next, {
        operations: withOps(current, { 1: 'PROCESSING' }),
      });
      return;
    }
    case 'SIGNED':
      await move(tx, row, at, 'SUBMITTED', offRamp ? next : at, {
        operations: withOps(
          row,
          offRamp ? { 1: 'COMPLETED', 2: 'PROCESSING' } : { 1: 'PROCESSING' },
        ),
        ...(offRamp ? { txHash: row.txHash ?? newTxHash(row.blockChain) } : {}),
      });
      return;
    case 'SUBMITTED':
      if (!offRamp && opStatus(1) === 'PROCESSING') {
        // The deposit has arrived: the trade starts. Still SUBMITTED.
        await tx
          .update(transactions)
          .set({
            operations: withOps(row, { 1: 'COMPLETED', 2: 'PROCESSING' }),
            nextStepAt: next,
            updatedAt: at,
          })
          .where(and(eq(transactions.id, row.id), eq(transactions.status, 'SUBMITTED')));
        // The operations' webhooks, in this database transaction (the transaction's status stays).
        await recordOperationsMoved(tx, {
          transactionId: row.id,
          orgId: row.orgId,
          at,
          operationsBefore: row.operations,
        });
        return;
      }
      if (plan.ramp.fail) return fail();
      await move(tx, row, at, 'WAITING_CONFIRMATION', next, {
        operations: withOps(row, { 2: 'COMPLETED', 3: 'PROCESSING' }),
        // An on-ramp's crypto goes on chain now; an FX's payout is a bank's, with no hash.
        ...(plan.ramp.kind === 'ON_RAMP'
          ? { txHash: row.txHash ?? newTxHash(row.blockChain) }
          : {}),
      });
      return;
    case 'WAITING_CONFIRMATION': {
      const changes = netChanges(row);
      const done = await move(tx, row, at, 'COMPLETED', null, {
        operations: withOps(row, { 1: 'COMPLETED', 2: 'COMPLETED', 3: 'COMPLETED' }),
        balanceChanges: { changes },
      });
      if (done)
        await moveBalances(tx, at, {
          release: plan.holds,
          orgId: row.orgId,
          changes,
          movement: movementSourceOf(row, providerFee(row, plan)),
        });
      return;
    }
    default:
      await tx.update(transactions).set({ nextStepAt: null }).where(eq(transactions.id, row.id));
  }
}

/** Why a ramp whose rate moved beyond the tolerance after its final approval did not execute. */
function movedBeyond(requote: RampRequote): string {
  return `the quote expired and the provider's rate moved from ${requote.acceptedRate} (approved) to ${requote.rate}, beyond the ${requote.tolerancePercent}% tolerance: nothing was sent; quote it again`;
}

/**
 * The provider's fee as the ledger records it: an off-ramp's fee is taken
 * from the crypto the vault sends, so the ledger splits it from the debit
 * as a FEE movement of its own (the balance moves as before). An on-ramp's
 * or FX's fee is paid in fiat from the bank, never from a vault: nothing to
 * split.
 */
function providerFee(row: TransactionRow, plan: RampPlan) {
  const fees = row.fees;
  if (plan.ramp.kind !== 'OFF_RAMP' || !fees?.amount || fees.asset !== row.asset) return undefined;
  return { party: plan.feePayer, asset: fees.asset, chain: row.blockChain, amount: fees.amount };
}

/** The ramp's net effect: what its operations move, the provider's own legs left out. */
function netChanges(row: TransactionRow): BalanceChange[] {
  return (row.operations ?? []).flatMap((op) =>
    (op.balanceChanges?.changes ?? []).filter((c) => c.party?.type !== 'EXTERNAL_ADDRESS'),
  );
}

/**
 * POST …/transactions/mark_deposit_done/: the payer says an approved
 * on-ramp's money is on its way. Once only; never before approval (the
 * deposit instructions are not shown before then), never on an off-ramp.
 */
export async function markDepositDone(
  db: Database,
  input: { orgId: string; transactionId: string; now: Date },
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
    const plan = readRampPlan(row.simulation);
    const refuse = (code: string, message: string) =>
      new ApiError(400, code, `transactionId: ${message}`, [{ field: 'transactionId', message }]);
    if (!plan || plan.ramp.kind === 'OFF_RAMP')
      throw refuse(
        ERROR_CODES.notAwaitingDeposit,
        `transaction ${row.id} is ${plan ? 'an off-ramp' : `a ${row.category}`}: only an on-ramp or FX waits for a deposit`,
      );
    if (plan.ramp.depositMarkedAt)
      throw refuse(
        ERROR_CODES.depositAlreadyMarked,
        `the deposit of transaction ${row.id} was already marked sent at ${plan.ramp.depositMarkedAt}`,
      );
    if (row.status !== 'APPROVED')
      throw refuse(
        ERROR_CODES.notAwaitingDeposit,
        row.status === 'PENDING'
          ? `transaction ${row.id} is PENDING: it must be approved before its deposit is sent`
          : `transaction ${row.id} is ${row.status}: it waits for no deposit`,
      );
    // The trade is priced when the money is on its way: an expired quote is priced again first.
    const priced = await requoteIfExpired(tx, row, input.now, 'EXECUTION');
    if (priced?.requote.beyondTolerance) {
      await transition(tx, {
        transactionId: row.id,
        from: 'APPROVED',
        to: 'FAILED',
        at: input.now,
        nextStepAt: null,
        operationsBefore: row.operations,
        patch: {
          operations: withOps(priced.row, { 1: 'CANCELLED', 2: 'CANCELLED', 3: 'CANCELLED' }),
          error: movedBeyond(priced.requote),
        },
      });
      const [failed] = await tx.select().from(transactions).where(eq(transactions.id, row.id));
      if (!failed) throw new Error('markDepositDone: the row went away');
      return failed;
    }
    const current = priced?.row ?? row;
    const currentPlan = readRampPlan(current.simulation) ?? plan;
    const marked: RampPlan = {
      ...currentPlan,
      ramp: { ...currentPlan.ramp, depositMarkedAt: input.now.toISOString() },
    };
    const simulation = { ...marked };
    await transition(tx, {
      transactionId: row.id,
      from: 'APPROVED',
      to: 'SIGNED',
      at: input.now,
      nextStepAt: input.now,
      operationsBefore: current.operations,
      patch: { simulation, operations: withOps(current, { 1: 'PROCESSING' }) },
    });
    const [moved] = await tx.select().from(transactions).where(eq(transactions.id, row.id));
    if (!moved) throw new Error('markDepositDone: the row went away');
    // Straight on to SUBMITTED: the money is on its way, as the SDKs expect to read back.
    await advanceRamp(tx, moved, input.now, { timeScale: 1 });
    const [after] = await tx.select().from(transactions).where(eq(transactions.id, row.id));
    if (!after) throw new Error('markDepositDone: the row went away');
    return after;
  });
}
