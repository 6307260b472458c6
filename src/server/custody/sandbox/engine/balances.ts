import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { add, cmp, isNegative, isZero, sub } from '#contract/decimal.ts';
import type { BalanceChange } from '#contract/transaction.ts';
import { vaultBalances, vaults } from '../../../db/schema/sandbox.ts';
import { tableName, threadWriteVersion } from '../../../db/read-cache.ts';
import type { Hold } from './plan.ts';
import type { Executor } from './transitions.ts';
import { planMovements, recordMovements, rowKey, type MovementSource } from './movements.ts';

/**
 * Vault balances under the lifecycle: holds reserve amount + fee at signing
 * so concurrent spends can never overdraw, and completion moves the money
 * and releases the hold in one statement per balance row (moveBalances).
 * Every step locks balance rows in one order, by mergeHolds' key (vault,
 * asset, chain), after the transaction rows it locks. All arithmetic on
 * amounts happens in NUMERIC inside PostgreSQL or in the decimal module.
 * `at` is the step's time on the engine's clock, stamped as `updatedAt`.
 */

const key = (h: Pick<Hold, 'vaultId' | 'asset' | 'chain'>) => rowKey(h);

/** One hold per balance row, in a fixed order so two signers lock rows in the same order. */
export function mergeHolds(holds: readonly Hold[]): Hold[] {
  const merged = new Map<string, Hold>();
  for (const h of holds) {
    const existing = merged.get(key(h));
    merged.set(
      key(h),
      existing ? { ...existing, amount: add(existing.amount, h.amount) } : { ...h },
    );
  }
  return [...merged.values()].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

export interface Shortfall {
  hold: Hold;
  /** What the vault could still spend: amount − held (0 when it holds none of the asset). */
  available: string;
}

/**
 * Reserves every hold or none: the rows are locked first, so the check and
 * the update see the same balance, and the UPDATE keeps its own guard as the
 * last line of defence (with the table's CHECK constraints behind it).
 */
export async function reserveHolds(
  db: Executor,
  holds: readonly Hold[],
  at: Date,
): Promise<Shortfall | null> {
  const merged = mergeHolds(holds);
  if (merged.length === 1 && merged[0]) return reserveOne(db, merged[0], at);
  const available = new Map<string, string>();
  for (const h of merged) {
    const [row] = await db
      .select({ amount: vaultBalances.amount, held: vaultBalances.held })
      .from(vaultBalances)
      .where(balanceRow(h))
      .for('update');
    available.set(key(h), row ? sub(row.amount, row.held) : '0');
  }
  for (const h of merged) {
    const free = available.get(key(h)) ?? '0';
    if (cmp(free, h.amount) < 0) return { hold: h, available: free };
  }
  for (const h of merged) {
    if (!(await holdIfAvailable(db, h, at)))
      throw new Error(`hold on ${key(h)} lost its balance while locked`);
  }
  return null;
}

/** Adds `h` to its row's held amount if what is left to spend covers it: false when not. */
async function holdIfAvailable(db: Executor, h: Hold, at: Date): Promise<boolean> {
  const updated = await db
    .update(vaultBalances)
    .set({ held: sql`${vaultBalances.held} + ${h.amount}::numeric`, updatedAt: at })
    .where(
      and(
        balanceRow(h),
        sql`${vaultBalances.amount} - ${vaultBalances.held} >= ${h.amount}::numeric`,
      ),
    )
    .returning({ vaultId: vaultBalances.vaultId });
  return updated.length > 0;
}

/**
 * One balance row (an asset and its fee from one vault, the usual signing):
 * the guarded UPDATE alone locks, checks and reserves, one statement where
 * locking, reading and updating took two (the simulator's steps are
 * PGlite's thread's time). Only a shortfall reads the row, to say what
 * was available; the failed UPDATE wrote nothing.
 */
async function reserveOne(db: Executor, h: Hold, at: Date): Promise<Shortfall | null> {
  if (await holdIfAvailable(db, h, at)) return null;
  const [row] = await db
    .select({ amount: vaultBalances.amount, held: vaultBalances.held })
    .from(vaultBalances)
    .where(balanceRow(h))
    .for('update');
  return { hold: h, available: row ? sub(row.amount, row.held) : '0' };
}

/**
 * What one step does to one balance row: `held` changes by `held` (negative
 * releases a hold) and `amount` by `amount` (negative debits, positive
 * credits), both decimals.
 */
interface RowMove {
  vaultId: string;
  asset: string;
  chain: string;
  held: string;
  amount: string;
}

/**
 * Ends holds and moves money in one pass over the balance rows, one
 * statement per row, in the one lock order every step uses (mergeHolds'
 * key: vault, asset, chain). Two steps touching the same rows (opposite
 * transfers between two vaults, on two servers) therefore lock them in the
 * same order and can never deadlock: releasing the debited rows first and
 * crediting the other vault's afterwards took them in opposite orders
 * (a 40P01 with three servers on one PostgreSQL).
 *
 * `release` are holds to end; `changes` a completed transaction's balance
 * changes, applied to the vaults of the organization it names (contacts and
 * outside addresses have no balances here). Debits were reserved at
 * signing, so they always fit. Call it after every transaction row the step
 * locks: transaction rows first, then balance rows.
 */
export async function moveBalances(
  db: Executor,
  at: Date,
  input: {
    release?: readonly Hold[] | undefined;
    orgId?: string;
    changes?: readonly BalanceChange[];
    /** What moved them, for the ledger's movements: required with `changes`. */
    movement?: MovementSource;
  },
): Promise<void> {
  const moves = new Map<string, RowMove>();
  const moveOf = (h: Pick<Hold, 'vaultId' | 'asset' | 'chain'>): RowMove => {
    let move = moves.get(key(h));
    if (!move) {
      move = { vaultId: h.vaultId, asset: h.asset, chain: h.chain, held: '0', amount: '0' };
      moves.set(key(h), move);
    }
    return move;
  };
  for (const h of input.release ?? []) {
    const move = moveOf(h);
    move.held = sub(move.held, h.amount);
  }
  let planned: ReturnType<typeof planMovements> = [];
  if (input.orgId && input.changes) {
    const ours = await ourVaultChanges(db, input.orgId, input.changes);
    if (ours.length > 0 && !input.movement)
      throw new Error('balance changes without what moved them: the ledger would miss them');
    if (input.movement) planned = planMovements(ours, input.movement);
    for (const c of ours) {
      const move = moveOf(c);
      move.amount = add(move.amount, c.amount);
    }
  }
  const recorded = new Set(planned.map((m) => key(m)));
  const finalAmount = new Map<string, string>();
  const ordered = [...moves.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, move]) => move);
  for (const move of ordered) {
    // A row whose movements net to nothing is still updated: its movements need its balance.
    if (isZero(move.held) && isZero(move.amount) && !recorded.has(key(move))) continue;
    if (isZero(move.held) && !isNegative(move.amount)) {
      // A credit: the row may not exist yet (the vault's first of this asset).
      const [credited] = await db
        .insert(vaultBalances)
        .values({
          vaultId: move.vaultId,
          asset: move.asset,
          chain: move.chain,
          amount: move.amount,
          updatedAt: at,
        })
        .onConflictDoUpdate({
          target: [vaultBalances.vaultId, vaultBalances.asset, vaultBalances.chain],
          set: {
            amount: sql`${vaultBalances.amount} + ${move.amount}::numeric`,
            updatedAt: at,
          },
        })
        .returning({ amount: vaultBalances.amount });
      if (credited) finalAmount.set(key(move), credited.amount);
      continue;
    }
    const updated = await db
      .update(vaultBalances)
      .set({
        held: sql`${vaultBalances.held} + ${move.held}::numeric`,
        amount: sql`${vaultBalances.amount} + ${move.amount}::numeric`,
        updatedAt: at,
      })
      .where(balanceRow(move))
      .returning({ amount: vaultBalances.amount });
    // A hold or a debit always has its row (reserved at signing); if not, the books are wrong: stop.
    const [row] = updated;
    if (!row) throw new Error(`balance row ${key(move)} is missing`);
    finalAmount.set(key(move), row.amount);
  }
  if (input.orgId && input.movement)
    await recordMovements(db, at, {
      orgId: input.orgId,
      from: input.movement,
      movements: planned,
      finalAmount,
    });
}

/** The changes that fall on vaults of `orgId`, as one signed amount per change. */
async function ourVaultChanges(
  db: Executor,
  orgId: string,
  changes: readonly BalanceChange[],
): Promise<Hold[]> {
  const vaultIds = [
    ...new Set(
      changes.flatMap((c) => (c.party?.type === 'VAULT' && c.party.id ? [c.party.id] : [])),
    ),
  ];
  if (vaultIds.length === 0) return [];
  const owners = await ownersOf(db, vaultIds);
  return changes.flatMap((c) => {
    const vaultId = c.party?.id;
    if (c.party?.type !== 'VAULT' || !vaultId || owners.get(vaultId) !== orgId) return [];
    if (!c.asset || !c.amount || !c.chain) return [];
    return [{ vaultId, asset: c.asset, chain: c.chain, amount: c.amount }];
  });
}

/** Vaults' organizations (null: no such vault), at a write count of the vaults table (PGlite only). */
let knownOwners: { version: string; orgOf: Map<string, string | null> } | undefined;

/**
 * Each vault's organization. On PGlite kept while the vaults table is
 * unchanged (db/read-cache.ts, threadWriteVersion): every completed transfer
 * asked it again, one of a completion's statements.
 */
async function ownersOf(db: Executor, vaultIds: string[]): Promise<Map<string, string | null>> {
  const read = async (ids: string[]) =>
    db
      .select({ id: vaults.id, orgId: vaults.orgId })
      .from(vaults)
      .where(inArray(vaults.id, ids))
      .orderBy(asc(vaults.id));
  const version = threadWriteVersion([tableName(vaults)]);
  if (version === undefined) {
    const found = new Map<string, string | null>(vaultIds.map((id) => [id, null]));
    for (const v of await read(vaultIds)) found.set(v.id, v.orgId);
    return found;
  }
  if (knownOwners?.version !== version) knownOwners = { version, orgOf: new Map() };
  const { orgOf } = knownOwners;
  const missing = vaultIds.filter((id) => !orgOf.has(id));
  if (missing.length > 0) {
    const found = await read(missing);
    for (const id of missing) orgOf.set(id, found.find((v) => v.id === id)?.orgId ?? null);
  }
  return orgOf;
}

function balanceRow(h: Pick<Hold, 'vaultId' | 'asset' | 'chain'>) {
  return and(
    eq(vaultBalances.vaultId, h.vaultId),
    eq(vaultBalances.asset, h.asset),
    eq(vaultBalances.chain, h.chain),
  );
}
