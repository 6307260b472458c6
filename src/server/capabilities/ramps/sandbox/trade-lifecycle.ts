import { eq } from 'drizzle-orm';
import type { OperationStatus } from '#contract/enums.ts';
import { add, neg } from '#contract/decimal.ts';
import type { TradeRecord } from '#contract/trades.ts';
import type { Operation, Party } from '#contract/transaction.ts';
import { transactions } from '../../../db/schema/sandbox.ts';
import type { TransactionRow } from '../../../custody/sandbox/mappers.ts';
import { moveBalances } from '../../../custody/sandbox/engine/balances.ts';
import { movementSourceOf } from '../../../custody/sandbox/engine/movements.ts';
import { newTxHash } from '../../../custody/sandbox/engine/chain-artifacts.ts';
import { readPlan, type SimulationPlan } from '../../../custody/sandbox/engine/plan.ts';
import { moveRow as move, type Executor } from '../../../custody/sandbox/engine/transitions.ts';

/**
 * A swap's lifecycle in the simulator (docs/ramps.md, "Swaps"): its one TRADE
 * operation PENDING → PROCESSING → COMPLETED over APPROVED → SIGNED (the
 * provider takes the order) → SUBMITTED (settled on chain, txHash) →
 * WAITING_CONFIRMATION → COMPLETED, when the vault pays the amount and fee
 * of the source asset (its hold released) and receives exactly what the
 * quote promised of the target asset. Each step lasts a third of the
 * provider's completion time, divided by SANDBOX_TIME_SCALE. A decline
 * releases the hold (approval-outcome.ts); nothing moves before COMPLETED.
 */

export interface SwapPlan extends SimulationPlan {
  swap: { provider: string; completionSeconds: number };
}

export function readSwapPlan(value: unknown): SwapPlan | null {
  const plan = readPlan(value) as SwapPlan | null;
  return plan && typeof plan.swap === 'object' && plan.swap !== null ? plan : null;
}

/** Is this row a swap this lifecycle moves (as opposed to a seeded historical one)? */
export function isSwapRow(row: Pick<TransactionRow, 'simulation' | 'trade'>): boolean {
  return row.trade !== null && readSwapPlan(row.simulation) !== null;
}

/** What a swap moves on its vault: the source down by amount and fee, the target up by the promise. */
export function swapChanges(source: Party, destination: Party, trade: TradeRecord) {
  return [
    {
      party: source,
      asset: trade.fromAsset,
      amount: neg(add(trade.fromAmount, trade.fee)),
      chain: trade.fromChain,
    },
    { party: destination, asset: trade.toAsset, amount: trade.finalToAmount, chain: trade.toChain },
  ];
}

function withTrade(row: TransactionRow, status: OperationStatus): Operation[] {
  return (row.operations ?? []).map((op) => (op.type === 'TRADE' ? { ...op, status } : op));
}

/** One step of a swap, inside the database transaction that locked its row (steps.ts's advance). */
export async function advanceSwap(
  tx: Executor,
  row: TransactionRow,
  at: Date,
  config: { timeScale: number },
): Promise<void> {
  const plan = readSwapPlan(row.simulation);
  const trade = row.trade;
  if (!plan || !trade) return;
  const stepMs = Math.max(
    1,
    Math.round((plan.swap.completionSeconds * 1000) / config.timeScale / 3),
  );
  const next = new Date(at.getTime() + stepMs);
  switch (row.status) {
    case 'APPROVED':
      await move(tx, row, at, 'SIGNED', next, { operations: withTrade(row, 'PROCESSING') });
      return;
    case 'SIGNED':
      await move(tx, row, at, 'SUBMITTED', next, {
        txHash: row.txHash ?? newTxHash(row.blockChain),
      });
      return;
    case 'SUBMITTED':
      await move(tx, row, at, 'WAITING_CONFIRMATION', next, {});
      return;
    case 'WAITING_CONFIRMATION': {
      const source = row.source ?? plan.feePayer;
      const changes = swapChanges(source, row.destination ?? source, trade);
      const done = await move(tx, row, at, 'COMPLETED', null, {
        operations: withTrade(row, 'COMPLETED'),
        balanceChanges: { changes },
      });
      if (done)
        await moveBalances(tx, at, {
          release: plan.holds,
          orgId: row.orgId,
          changes,
          // The provider's fee rides on the source's debit: the ledger shows it apart.
          movement: movementSourceOf(row, {
            party: source,
            asset: trade.fromAsset,
            chain: trade.fromChain,
            amount: trade.fee,
          }),
        });
      return;
    }
    default:
      await tx.update(transactions).set({ nextStepAt: null }).where(eq(transactions.id, row.id));
  }
}
