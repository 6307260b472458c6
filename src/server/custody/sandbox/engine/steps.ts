import { and, eq, inArray, isNull } from 'drizzle-orm';
import { chainInfo } from '#contract/chains.ts';
import { isTerminalStatus, type FeeTier, type TransactionStatus } from '#contract/enums.ts';
import type { Party, TransactionFees } from '#contract/transaction.ts';
import { transactions } from '../../../db/schema/sandbox.ts';
import { confirmationDelaysMs, estimateFees, feeForTier, replacementFeeFor } from '../fee-model.ts';
import type { TransactionRow } from '../mappers.ts';
import { feeOnly, settle, type FeeCharge } from '../seed/movements.ts';
import { moveBalances, reserveHolds } from './balances.ts';
import { movementSourceOf } from './movements.ts';
import { newTxHash, nextNonce } from './chain-artifacts.ts';
import { holdsFor, readPlan, simulatedStuck, type Hold, type SimulationPlan } from './plan.ts';
import { advanceRamp, isRampRow } from '../../../capabilities/ramps/sandbox/ramp-lifecycle.ts';
import { rawSignatureFor } from './raw-signing.ts';
import { openStakingPosition } from './staking-rewards.ts';
import { advanceSwap, isSwapRow } from '../../../capabilities/ramps/sandbox/trade-lifecycle.ts';
import { transition, type Executor, type TransitionInput } from './transitions.ts';
import { awaitsUserAction } from './user-action.ts';

/**
 * One step of the lifecycle for one transaction, inside the database
 * transaction that locked its row: APPROVED → SIGNED → SUBMITTED →
 * WAITING_CONFIRMATION → COMPLETED, or FAILED where the money says so.
 * `at` is when the step was due, so a test clock jumped forward (or a
 * server that was down) plays the lifecycle out with its own timestamps.
 */

export interface StepConfig {
  timeScale: number;
}

export async function advance(
  tx: Executor,
  row: TransactionRow,
  at: Date,
  config: StepConfig,
): Promise<void> {
  // A ramp runs its own operations (ramp-lifecycle.ts).
  if (isRampRow(row)) return advanceRamp(tx, row, at, config);
  // So does a swap (trade-lifecycle.ts).
  if (isSwapRow(row)) return advanceSwap(tx, row, at, config);
  switch (row.status) {
    case 'APPROVED': {
      // A scheduled transfer approved early waits, approved, for its time.
      const executeAt = readPlan(row.simulation)?.executeAt;
      if (executeAt && new Date(executeAt).getTime() > at.getTime()) {
        await tx
          .update(transactions)
          .set({ nextStepAt: new Date(executeAt) })
          .where(eq(transactions.id, row.id));
        return;
      }
      // A vault signer's user action first, where the vault names API users among its signers.
      if (await awaitsUserAction(tx, row, at)) return;
      return sign(tx, row, at, config);
    }
    case 'SIGNED':
      return submit(tx, row, at, config);
    case 'SUBMITTED':
      return include(tx, row, at, config);
    case 'WAITING_CONFIRMATION':
      return confirm(tx, row, at);
    default:
      // Nothing to do (PENDING waits for a decision; terminal is terminal): stop asking.
      await tx.update(transactions).set({ nextStepAt: null }).where(eq(transactions.id, row.id));
  }
}

/** The tier asked for; a row without one (seeded, or made before tiers) goes at HIGH, the create's default. */
const tierOf = (row: TransactionRow): FeeTier => row.feeTier ?? 'HIGH';

/**
 * On along the path to `to`: the step after it falls due once `to` has lasted
 * its time on this chain at this tier (judged now, congestion included), or
 * never while `parked` (a stuck broadcast waits for its replacement).
 */
function moveOn(
  tx: Executor,
  row: TransactionRow,
  at: Date,
  config: StepConfig,
  step: {
    from: TransactionStatus;
    to: 'SIGNED' | 'SUBMITTED' | 'WAITING_CONFIRMATION';
    patch?: TransitionInput['patch'];
    parked?: boolean;
  },
): Promise<boolean> {
  const lasts = () =>
    confirmationDelaysMs(row.blockChain, tierOf(row), config.timeScale, at)[step.to];
  return transition(tx, {
    transactionId: row.id,
    from: step.from,
    to: step.to,
    at,
    nextStepAt: step.parked ? null : new Date(at.getTime() + lasts()),
    ...(step.patch ? { patch: step.patch } : {}),
  });
}

/** To a status that ends the lifecycle: no step follows. */
function end(
  tx: Executor,
  transactionId: string,
  at: Date,
  step: {
    from: TransactionStatus;
    to: 'COMPLETED' | 'FAILED';
    patch: TransitionInput['patch'];
    operationsBefore?: TransitionInput['operationsBefore'];
  },
): Promise<boolean> {
  return transition(tx, { transactionId, ...step, at, nextStepAt: null });
}

/** The plan stored at creation, or one read off the row for transactions made without one. */
function planOf(row: TransactionRow): SimulationPlan {
  const stored = readPlan(row.simulation);
  if (stored) return stored;
  const source: Party = row.source ?? {
    type: 'VAULT',
    id: row.vaultId ?? '',
    chain: row.blockChain,
  };
  const legs =
    row.destination && row.asset && row.amount
      ? [
          {
            type: 'TRANSFER' as const,
            source,
            destination: row.destination,
            asset: row.asset,
            amount: row.amount,
            chain: row.blockChain,
            onChain: true,
          },
        ]
      : [];
  return { legs, feePayer: source };
}

/** The fee charged: the tier's estimate now, or for a replacement at least 10% over the original's. */
async function feeAtSigning(tx: Executor, row: TransactionRow, at: Date): Promise<TransactionFees> {
  const native = chainInfo(row.blockChain)?.nativeAsset ?? row.asset ?? '';
  const estimate = estimateFees({
    blockChain: row.blockChain,
    asset: row.asset ?? native,
    amount: row.amount ?? '0',
    now: at,
  });
  let fee = feeForTier(estimate, tierOf(row));
  if (row.replacesTransactionId) {
    const [original] = await tx
      .select({ fees: transactions.fees })
      .from(transactions)
      .where(eq(transactions.id, row.replacesTransactionId));
    // A fee recorded without its asset was charged at signing, on this chain: in its native asset.
    if (original?.fees?.amount)
      fee = replacementFeeFor(
        { amount: original.fees.amount, asset: original.fees.asset ?? native },
        estimate,
      );
  }
  return { amount: fee.expectedFeeInAsset, asset: fee.asset, amountInFiat: fee.expectedFeeInUSD };
}

async function sign(
  tx: Executor,
  row: TransactionRow,
  at: Date,
  config: StepConfig,
): Promise<void> {
  const plan = planOf(row);
  const raw = await rawSignatureFor(tx, row);
  if (raw && 'error' in raw) {
    await end(tx, row.id, at, { from: 'APPROVED', to: 'FAILED', patch: { error: raw.error } });
    return;
  }
  const fees = await feeAtSigning(tx, row, at);
  const holds = holdsFor(plan, fees, row.blockChain);
  // Transaction rows before balance rows: a shortfall wakes the original, so it is locked first.
  if (row.replacesTransactionId)
    await tx
      .select({ id: transactions.id })
      .from(transactions)
      .where(eq(transactions.id, row.replacesTransactionId))
      .for('update');
  const shortfall = await reserveHolds(tx, holds, at);
  if (shortfall) {
    const { hold, available } = shortfall;
    const vault = [plan.feePayer, ...plan.legs.map((l) => l.source)].find(
      (p) => p.id === hold.vaultId,
    );
    await end(tx, row.id, at, {
      from: 'APPROVED',
      to: 'FAILED',
      patch: {
        error: `insufficient balance: vault ${vault?.name ?? hold.vaultId} holds ${available} ${hold.asset} on ${hold.chain}, needs ${hold.amount}`,
      },
    });
    await wakeReplacedOriginal(tx, row, at);
    return;
  }
  await moveOn(tx, row, at, config, {
    from: 'APPROVED',
    to: 'SIGNED',
    patch: { fees, simulation: { ...plan, holds, ...(raw ? { signature: raw.signature } : {}) } },
  });
}

async function submit(
  tx: Executor,
  row: TransactionRow,
  at: Date,
  config: StepConfig,
): Promise<void> {
  const evm = chainInfo(row.blockChain)?.kind === 'EVM';
  const nonce =
    evm && row.nonce === null && row.vaultId
      ? await nextNonce(tx, row.vaultId, row.blockChain)
      : row.nonce;
  // Congestion is judged now: a LOW fee broadcast into a busy chain waits long enough to be replaced.
  await moveOn(tx, row, at, config, {
    from: 'SIGNED',
    to: 'SUBMITTED',
    patch: { txHash: row.txHash ?? newTxHash(row.blockChain), nonce },
    parked: simulatedStuck(row),
  });
}

async function include(
  tx: Executor,
  row: TransactionRow,
  at: Date,
  config: StepConfig,
): Promise<void> {
  const replacements = await replacementsOf(tx, [row.id]);
  if (replacements.some((r) => !isTerminalStatus(r.status))) {
    // Its replacement is in flight with the same nonce: only one of them can land. It waits,
    // parked, until the replacement lands (then it fails) or dies before broadcast (then it wakes).
    await tx.update(transactions).set({ nextStepAt: null }).where(eq(transactions.id, row.id));
    return;
  }
  // A chain replaced before a landing failed all of it may have left this one
  // SUBMITTED behind a replacement of its replacement that took the nonce: it can never land.
  const landed = await landedAmong(tx, replacements);
  if (landed) {
    const moved = await end(tx, row.id, at, {
      from: 'SUBMITTED',
      to: 'FAILED',
      patch: { error: `replaced by transaction ${landed}, which took its nonce` },
    });
    if (moved) await moveBalances(tx, at, { release: readPlan(row.simulation)?.holds });
    return;
  }
  await moveOn(tx, row, at, config, { from: 'SUBMITTED', to: 'WAITING_CONFIRMATION' });
}

interface ReplacementState {
  id: string;
  status: TransactionStatus;
  /** It reached the chain: completed, or reverted and burned its fee. */
  landed: boolean;
}

async function replacementsOf(tx: Executor, ids: string[]): Promise<ReplacementState[]> {
  const rows = await tx
    .select({
      id: transactions.id,
      status: transactions.status,
      balanceChanges: transactions.balanceChanges,
    })
    .from(transactions)
    .where(inArray(transactions.replacesTransactionId, ids));
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    landed: r.status === 'COMPLETED' || (r.status === 'FAILED' && r.balanceChanges !== null),
  }));
}

/** The one of these replacements, or of theirs, that reached the chain; none while none has. */
async function landedAmong(
  tx: Executor,
  replacements: ReplacementState[],
): Promise<string | undefined> {
  const visited = new Set<string>();
  let level = replacements;
  while (level.length > 0) {
    const found = level.find((r) => r.landed);
    if (found) return found.id;
    const next = level.filter((r) => !visited.has(r.id)).map((r) => r.id);
    next.forEach((id) => visited.add(id));
    level = next.length > 0 ? await replacementsOf(tx, next) : [];
  }
  return undefined;
}

async function confirm(tx: Executor, row: TransactionRow, at: Date): Promise<void> {
  const plan = planOf(row);
  const fees = row.fees?.amount ? row.fees : await feeAtSigning(tx, row, at);
  const fee: FeeCharge = {
    payer: plan.feePayer,
    asset: fees.asset ?? '',
    amount: fees.amount ?? '0',
    chain: row.blockChain,
  };
  // Transaction rows first (this one is locked; its replaced chain next), then balance rows.
  const replacedHolds = row.replacesTransactionId ? await failReplacedChain(tx, row, at) : [];
  const release = [...(plan.holds ?? []), ...replacedHolds];
  const movement = movementSourceOf(row, {
    party: fee.payer,
    asset: fee.asset,
    chain: fee.chain,
    amount: fee.amount,
  });
  if (plan.revert) {
    // A reverted call still burned its gas: the fee is the only change.
    const changes = feeOnly(fee);
    await moveBalances(tx, at, { release, orgId: row.orgId, changes, movement });
    await end(tx, row.id, at, {
      from: 'WAITING_CONFIRMATION',
      to: 'FAILED',
      patch: { error: plan.revert, balanceChanges: { changes }, fees },
    });
  } else {
    // A completed stake opens its rewards (its position row before the balance rows: that order).
    if (row.category === 'STAKE') await openStakingPosition(tx, row, at);
    const settled = settle(plan.legs, fee, {
      source: row.source ?? plan.feePayer,
      ...(row.destination ? { destination: row.destination } : {}),
    });
    await moveBalances(tx, at, {
      release,
      orgId: row.orgId,
      changes: settled.changes,
      movement,
    });
    await end(tx, row.id, at, {
      from: 'WAITING_CONFIRMATION',
      to: 'COMPLETED',
      patch: { operations: settled.operations, balanceChanges: { changes: settled.changes }, fees },
      // The row locked and read by this step: no read of them again.
      operationsBefore: row.operations,
    });
  }
}

/**
 * The replacement reached the chain with its original's nonce, which is the
 * nonce of every transaction it transitively replaces (a replacement of a
 * replacement carries the same one): none of them can ever land. Each still
 * SUBMITTED (parked behind its own replacement) ends FAILED naming the one
 * that landed; the holds it had are returned, for the caller to release with
 * the landed one's in one pass (moveBalances). Rows are locked from the
 * landed one back to the first original: a decision waking an original
 * locks in the same direction, so the two cannot deadlock.
 */
async function failReplacedChain(tx: Executor, landed: TransactionRow, at: Date): Promise<Hold[]> {
  const released: Hold[] = [];
  const visited = new Set([landed.id]);
  let originalId = landed.replacesTransactionId;
  while (originalId && !visited.has(originalId)) {
    visited.add(originalId);
    const [original] = await tx
      .select()
      .from(transactions)
      .where(eq(transactions.id, originalId))
      .for('update');
    if (!original) break;
    if (original.status === 'SUBMITTED') {
      const moved = await end(tx, original.id, at, {
        from: 'SUBMITTED',
        to: 'FAILED',
        patch: { error: `replaced by transaction ${landed.id}, which took its nonce` },
      });
      if (moved) released.push(...(readPlan(original.simulation)?.holds ?? []));
    }
    originalId = original.replacesTransactionId;
  }
  return released;
}

/**
 * A replacement that died before broadcast (declined, or short of funds)
 * leaves the original free to land: put it back on the simulator's schedule.
 */
export async function wakeReplacedOriginal(
  tx: Executor,
  replacement: Pick<TransactionRow, 'replacesTransactionId'>,
  at: Date,
): Promise<void> {
  if (!replacement.replacesTransactionId) return;
  await tx
    .update(transactions)
    .set({ nextStepAt: at })
    .where(
      and(
        eq(transactions.id, replacement.replacesTransactionId),
        eq(transactions.status, 'SUBMITTED'),
        isNull(transactions.nextStepAt),
      ),
    );
}
