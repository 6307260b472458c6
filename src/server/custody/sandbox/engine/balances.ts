import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { add, cmp, isNegative, sub } from '../../../../contract/decimal.ts';
import type { BalanceChange } from '../../../../contract/transaction.ts';
import { vaultBalances, vaults } from '../../../db/schema/sandbox.ts';
import type { Hold } from './plan.ts';
import type { Executor } from './transitions.ts';

/**
 * Vault balances under the lifecycle: holds reserve amount + fee at signing
 * so concurrent spends can never overdraw, and completion moves the money
 * and releases the hold in one statement per balance row. All arithmetic on
 * amounts happens in NUMERIC inside PostgreSQL or in the decimal module.
 * `at` is the step's time on the engine's clock, stamped as `updatedAt`.
 */

const key = (h: Pick<Hold, 'vaultId' | 'asset' | 'chain'>) =>
  `${h.vaultId}\u0000${h.asset}\u0000${h.chain}`;

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
    if (updated.length === 0) throw new Error(`hold on ${key(h)} lost its balance while locked`);
  }
  return null;
}

export async function releaseHolds(
  db: Executor,
  holds: readonly Hold[] | undefined,
  at: Date,
): Promise<void> {
  for (const h of mergeHolds(holds ?? [])) {
    await db
      .update(vaultBalances)
      .set({ held: sql`${vaultBalances.held} - ${h.amount}::numeric`, updatedAt: at })
      .where(balanceRow(h));
  }
}

/**
 * Applies a completed transaction's balance changes to the vaults of the
 * organization it names; contacts and outside addresses have no balances
 * here. Debits were reserved at signing, so they always fit.
 */
export async function applyBalanceChanges(
  db: Executor,
  orgId: string,
  changes: readonly BalanceChange[],
  at: Date,
): Promise<void> {
  const vaultIds = [
    ...new Set(
      changes.flatMap((c) => (c.party?.type === 'VAULT' && c.party.id ? [c.party.id] : [])),
    ),
  ];
  if (vaultIds.length === 0) return;
  const ours = new Set(
    (
      await db
        .select({ id: vaults.id })
        .from(vaults)
        .where(and(eq(vaults.orgId, orgId), inArray(vaults.id, vaultIds)))
        .orderBy(asc(vaults.id))
    ).map((v) => v.id),
  );
  const net = new Map<string, Hold>();
  for (const c of changes) {
    const vaultId = c.party?.id;
    if (
      c.party?.type !== 'VAULT' ||
      !vaultId ||
      !ours.has(vaultId) ||
      !c.asset ||
      !c.amount ||
      !c.chain
    )
      continue;
    const h = { vaultId, asset: c.asset, chain: c.chain, amount: c.amount };
    const existing = net.get(key(h));
    net.set(key(h), existing ? { ...existing, amount: add(existing.amount, h.amount) } : h);
  }
  for (const delta of mergeHolds([...net.values()])) {
    if (isNegative(delta.amount)) {
      const debited = await db
        .update(vaultBalances)
        .set({
          amount: sql`${vaultBalances.amount} + ${delta.amount}::numeric`,
          updatedAt: at,
        })
        .where(balanceRow(delta))
        .returning({ vaultId: vaultBalances.vaultId });
      // A debit is always held first, so its row exists; if not, the books are wrong: stop.
      if (debited.length === 0) throw new Error(`debit of ${key(delta)} has no balance row`);
    } else {
      await db
        .insert(vaultBalances)
        .values({
          vaultId: delta.vaultId,
          asset: delta.asset,
          chain: delta.chain,
          amount: delta.amount,
          updatedAt: at,
        })
        .onConflictDoUpdate({
          target: [vaultBalances.vaultId, vaultBalances.asset, vaultBalances.chain],
          set: {
            amount: sql`${vaultBalances.amount} + ${delta.amount}::numeric`,
            updatedAt: at,
          },
        });
    }
  }
}

function balanceRow(h: Pick<Hold, 'vaultId' | 'asset' | 'chain'>) {
  return and(
    eq(vaultBalances.vaultId, h.vaultId),
    eq(vaultBalances.asset, h.asset),
    eq(vaultBalances.chain, h.chain),
  );
}
