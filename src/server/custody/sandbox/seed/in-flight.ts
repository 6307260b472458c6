import { add, cmp } from '#contract/decimal.ts';
import type { TransactionStatus } from '#contract/enums.ts';
import { mergeHolds } from '../engine/balances.ts';
import { holdsFor, type SimulationPlan } from '../engine/plan.ts';
import type { FeeCharge, Leg } from './movements.ts';
import type { BalanceRow } from './reference-data.ts';

/**
 * Seeded transactions still in flight carry what the lifecycle simulator
 * needs to finish them: their plan, their next step's time
 * and, once signed, the amounts held on their vaults. So a first-time user
 * sees the seeded history keep moving.
 */

const MOVING: readonly TransactionStatus[] = [
  'APPROVED',
  'SIGNED',
  'SUBMITTED',
  'WAITING_CONFIRMATION',
];
const SIGNED: readonly TransactionStatus[] = ['SIGNED', 'SUBMITTED', 'WAITING_CONFIRMATION'];

export interface InFlightState {
  /** A SimulationPlan, as the jsonb column stores it. */
  simulation: Record<string, unknown> | null;
  nextStepAt: Date | null;
}

export function inFlightState(
  lastEventAt: Date,
  now: Date,
  status: TransactionStatus,
  legs: readonly Leg[],
  fee: FeeCharge,
): InFlightState {
  // PENDING waits for its change request to be decided; it still needs the plan for afterwards.
  if (status !== 'PENDING' && !MOVING.includes(status))
    return { simulation: null, nextStepAt: null };
  const plan: SimulationPlan = { legs: [...legs], feePayer: fee.payer };
  if (SIGNED.includes(status))
    plan.holds = holdsFor(plan, { amount: fee.amount, asset: fee.asset }, fee.chain);
  return {
    simulation: { ...plan },
    // Staggered over the first minutes, so they do not all land at once. Derived from the
    // timeline rather than drawn from the seed's random stream, which would change every later draw.
    nextStepAt: MOVING.includes(status)
      ? new Date(now.getTime() + 5_000 + (lastEventAt.getTime() % 175_000))
      : null,
  };
}

/**
 * Records the seeded holds on the balances they reserve. Where the random
 * balance would not cover them, the balance is raised to the hold: a vault
 * cannot have signed what it could not pay.
 */
export function applySeedHolds(
  balances: BalanceRow[],
  plans: ReadonlyArray<SimulationPlan | null>,
  now: Date,
): void {
  for (const hold of mergeHolds(plans.flatMap((p) => p?.holds ?? []))) {
    let row = balances.find(
      (b) => b.vaultId === hold.vaultId && b.asset === hold.asset && b.chain === hold.chain,
    );
    if (!row) {
      row = {
        vaultId: hold.vaultId,
        asset: hold.asset,
        chain: hold.chain,
        amount: '0',
        updatedAt: now,
      };
      balances.push(row);
    }
    const held = add(String(row.held ?? '0'), hold.amount);
    row.held = held;
    if (cmp(String(row.amount ?? '0'), held) < 0) row.amount = held;
  }
}
