import { add, cmp, isNegative, neg, sub } from '#contract/decimal.ts';
import type { BalanceChange } from '#contract/transaction.ts';
import type { Executor } from '../engine/transitions.ts';
import {
  movementSourceOf,
  planMovements,
  recordMovementSteps,
  recordOpeningBalances,
  rowKey,
  type MovementStep,
} from '../engine/movements.ts';
import type { FeeCharge } from './movements.ts';
import type { BalanceRow } from './reference-data.ts';
import type { TransactionSeedRow } from './transaction-data.ts';

/**
 * The seed's past in the ledger. Its finished transactions (completed, or
 * reverted with the fee burned) are booked as the movements the simulator
 * would have written when each ended: the same plan (`planMovements`: the
 * fee split out, the counterparty) and the same writer (`recordMovements`,
 * all steps at once: USD at the sandbox's price, the balance after each,
 * the day summaries), at the transaction's end.
 * The vaults' balances are today's; each balance row's opening is worked
 * back from it through every seeded movement, fees included, as the
 * upstream ledger works back its opening (ledger/upstream/sync.ts), and is
 * booked just before the oldest one. So the history's closing today is the
 * balance, and every statement reconciles.
 */

type Step = MovementStep & { finalAmount: Map<string, string> };

export interface SeedLedgerPast {
  openings: { vaultId: string; asset: string; chain: string; amount: string; at: Date }[];
  steps: Step[];
}

/**
 * Plans the movements and works the openings back from `balances` (today's).
 * Where the seeded history would take a balance below nothing (a vault that
 * received more than it now holds, or an asset it holds no row of), the
 * balance is raised by the shortfall, in `balances`: a vault cannot have sent
 * what it did not hold, as `applySeedHolds` raises one to what it holds back.
 */
export function planSeedLedger(
  balances: BalanceRow[],
  rows: readonly TransactionSeedRow[],
  fees: ReadonlyMap<string, FeeCharge>,
  vaultIds: ReadonlySet<string>,
  now: Date,
): SeedLedgerPast {
  const finished = rows
    .filter((r) => r.balanceChanges)
    .sort((a, b) => a.updatedAt.getTime() - b.updatedAt.getTime());
  const planned = finished.map((row) => {
    const fee = fees.get(row.id);
    const from = movementSourceOf(
      {
        id: row.id,
        externalId: row.externalId ?? null,
        memo: row.memo ?? null,
        source: row.source ?? null,
        destination: row.destination ?? null,
      },
      fee && { party: fee.payer, asset: fee.asset, chain: fee.chain, amount: fee.amount },
    );
    return { at: row.updatedAt, from, movements: planMovements(ours(row, vaultIds), from) };
  });

  // Each row's net over the seed and the lowest it went below its opening.
  const net = new Map<string, string>();
  const lowest = new Map<string, string>();
  const keys = new Map<string, BalanceRow>();
  for (const step of planned) {
    for (const m of step.movements) {
      const key = rowKey(m);
      const moved = add(net.get(key) ?? '0', m.amount);
      net.set(key, moved);
      if (cmp(moved, lowest.get(key) ?? '0') < 0) lowest.set(key, moved);
      if (!keys.has(key))
        keys.set(key, {
          vaultId: m.vaultId,
          asset: m.asset,
          chain: m.chain,
          amount: '0',
          updatedAt: now,
        });
    }
  }
  const byKey = new Map(balances.map((b) => [rowKey(b), b]));
  for (const [key, moved] of net) {
    const row = byKey.get(key) ?? keys.get(key);
    if (!row) continue;
    const today = row.amount ?? '0';
    // The opening, and the least held along the way: neither may be below nothing.
    const least = add(sub(today, moved), lowest.get(key) ?? '0');
    if (!isNegative(least)) continue;
    row.amount = add(today, neg(least));
    if (!byKey.has(key)) {
      balances.push(row);
      byKey.set(key, row);
    }
  }

  // A row the seed has no balance of (nothing raised it) ends at nothing: it opens at what it sent.
  const moved = [...balances, ...[...keys].filter(([key]) => !byKey.has(key)).map(([, b]) => b)];
  const running = new Map(
    moved.map((b) => [rowKey(b), sub(b.amount ?? '0', net.get(rowKey(b)) ?? '0')]),
  );
  const knownFrom = new Date((planned[0]?.at ?? now).getTime() - 1);
  const openings = moved.map((b) => ({
    vaultId: b.vaultId,
    asset: b.asset,
    chain: b.chain,
    amount: running.get(rowKey(b)) ?? '0',
    at: knownFrom,
  }));
  const steps = planned.map((step): Step => {
    const finalAmount = new Map<string, string>();
    for (const m of step.movements) {
      const after = add(running.get(rowKey(m)) ?? '0', m.amount);
      running.set(rowKey(m), after);
      finalAmount.set(rowKey(m), after);
    }
    return { ...step, finalAmount };
  });
  return { openings, steps };
}

/** The changes on the organization's vaults, as `moveBalances` takes them from a step. */
function ours(row: TransactionSeedRow, vaultIds: ReadonlySet<string>) {
  const changes = (row.balanceChanges?.changes ?? []) as BalanceChange[];
  return changes.flatMap((c) =>
    c.party?.type === 'VAULT' &&
    c.party.id &&
    vaultIds.has(c.party.id) &&
    c.asset &&
    c.amount &&
    c.chain
      ? [{ vaultId: c.party.id, asset: c.asset, chain: c.chain, amount: c.amount }]
      : [],
  );
}

/** Writes the planned past, in the seed's transaction, once the balances, assets and transactions are in. */
export async function recordSeedLedger(
  db: Executor,
  orgId: string,
  past: SeedLedgerPast,
): Promise<void> {
  await recordOpeningBalances(db, orgId, past.openings);
  await recordMovementSteps(db, orgId, past.steps);
}
