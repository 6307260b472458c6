import { and, asc, eq, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import { add, cmp, div, isNegative, isZero, mul, neg, sub } from '#contract/decimal.ts';
import { chainInfo } from '#contract/chains.ts';
import type { Party } from '#contract/transaction.ts';
import type { Database } from '../../../db/client.ts';
import {
  assets,
  stakingPositions,
  transactionStatusEvents,
  transactions,
} from '../../../db/schema/sandbox.ts';
import { STAKING_TARGETS } from '../seed/chain-details.ts';
import { moveBalances } from './balances.ts';
import type { Executor } from './transitions.ts';

/**
 * Staking rewards as the sandbox pays them. A vault's stake on a chain earns
 * a yearly rate, paid at the end of each of the chain's epochs on what was
 * staked throughout that epoch, credited to the vault's balance of the
 * staked asset as a REWARD movement of its own. Epochs are a fixed grid
 * counted from 1970-01-01T00:00Z, so a daily one ends at midnight UTC. The
 * rates are round figures near what each network paid in 2024–25; the
 * cadence is how often the reward reaches the holder:
 *
 * - ETHEREUM (ETH) 3.2 % a year, daily: consensus rewards accrue every 6.4
 *   minute epoch but reach the withdrawal address by the validator sweep,
 *   every few days; a daily line is the ledger's middle way.
 * - POLYGON (POL) 4 % a year, daily (delegators' checkpoint rewards).
 * - SOLANA (SOL) 7 % a year, every 2 days: one epoch of 432,000 slots.
 * - TRON (TRX) 4 % a year, daily: voting rewards on frozen TRX (either
 *   resource), claimable once a day.
 * - ICP 8 % a year, daily: a neuron's voting rewards.
 *
 * Rewards are paid out, not compounded into the stake. A stake starts
 * earning at the first epoch that begins after it completed (as Solana
 * activates stake), and an unstake stops earning on its part from the
 * moment it is asked for (the part is leaving, as on every chain). An epoch
 * pays on the least staked at any moment of it.
 *
 * Rounding: an epoch's reward is `staked × rate × epoch / 365 days`, worked
 * exactly in the decimal module, plus what earlier epochs left over
 * (`carry`, kept times the year's length so no division rounds it); the
 * vault is paid that rounded down to the asset's smallest unit and the rest
 * is carried to the next epoch. So what is paid
 * never falls more than one unit behind the exact accrual and never runs
 * ahead of it.
 */

const DAY_MS = 86_400_000;
/** Without trailing zeros, as the API writes amounts. */
const canonical = (x: string) => add(x, '0');
const YEAR_MS = 365 * DAY_MS;

export interface RewardTerms {
  /** A year's rate as a decimal fraction. */
  annualRate: string;
  epochMs: number;
}

export const STAKING_REWARDS: Readonly<Record<string, RewardTerms>> = {
  ETHEREUM: { annualRate: '0.032', epochMs: DAY_MS },
  POLYGON: { annualRate: '0.04', epochMs: DAY_MS },
  SOLANA: { annualRate: '0.07', epochMs: 2 * DAY_MS },
  TRON: { annualRate: '0.04', epochMs: DAY_MS },
  ICP: { annualRate: '0.08', epochMs: DAY_MS },
};

/** A change to what is staked, at an instant (epoch milliseconds). */
export interface StakeEvent {
  at: number;
  /** Positive: staked; negative: taken back. */
  delta: string;
}

/** The first epoch boundary at or after `at`. */
export function epochBoundaryFrom(at: number, epochMs: number): number {
  return Math.ceil(at / epochMs) * epochMs;
}

/** The least staked at any moment of [from, to]: events at `from` or before count, then each up to `to`. */
export function stakedThroughout(events: readonly StakeEvent[], from: number, to: number): string {
  const sorted = [...events].sort((a, b) => a.at - b.at);
  let staked = '0';
  const floor = (x: string) => (isNegative(x) ? '0' : x);
  for (const e of sorted) if (e.at <= from) staked = floor(add(staked, e.delta));
  let least = staked;
  for (const e of sorted) {
    if (e.at <= from || e.at > to) continue;
    staked = floor(add(staked, e.delta));
    if (cmp(staked, least) < 0) least = staked;
  }
  return least;
}

export interface RewardPayment {
  /** The epoch's end: when the reward is paid. */
  at: number;
  /** What earned it. */
  staked: string;
  /** Paid: whole smallest units of the asset, never zero. */
  amount: string;
}

export interface RewardsDue {
  payments: RewardPayment[];
  /** The end of the last epoch counted (paid or earning less than a unit). */
  paidUntil: number;
  /** Earned and not yet paid, times 365 days in milliseconds (so kept exact). */
  carry: string;
  /** When the next epoch ends. */
  nextAt: number;
}

/**
 * Every epoch that ended by `now` since `paidUntil`, at most `maxEpochs` of
 * them (the rest next time): what each pays, by the rules above. Pure.
 */
export function rewardsDue(input: {
  events: readonly StakeEvent[];
  terms: RewardTerms;
  decimals: number;
  paidUntil: number;
  carry: string;
  now: number;
  maxEpochs?: number;
}): RewardsDue {
  const { terms, decimals } = input;
  const payments: RewardPayment[] = [];
  let start = epochBoundaryFrom(input.paidUntil, terms.epochMs);
  let carry = input.carry;
  const perStaked = mul(terms.annualRate, String(terms.epochMs));
  const year = String(YEAR_MS);
  const unit = `0.${'0'.repeat(Math.max(0, decimals - 1))}1`;
  for (let n = 0; n < (input.maxEpochs ?? 1_000); n += 1) {
    const end = start + terms.epochMs;
    if (end > input.now) break;
    const staked = stakedThroughout(input.events, start, end);
    // Kept times a year (no division, so exact): what is earned and not yet paid.
    const earned = add(carry, mul(staked, perStaked));
    let paid = div(earned, year, decimals, 'down');
    // big.js divides to 20 places before rounding down: never pay past what was earned.
    if (cmp(mul(paid, year), earned) > 0) paid = sub(paid, unit);
    carry = sub(earned, mul(paid, year));
    if (!isZero(paid)) payments.push({ at: end, staked, amount: canonical(paid) });
    start = end;
  }
  return { payments, paidUntil: start, carry, nextAt: start + terms.epochMs };
}

/** The staking pool a reward comes from, as the ledger names the counterparty. */
function poolOf(chain: string): Party {
  return { type: 'EXTERNAL_ADDRESS', chain, name: STAKING_TARGETS[chain] ?? `${chain} staking` };
}

const stakedAsset = (row: { asset: string | null; blockChain: string }) =>
  row.asset ?? chainInfo(row.blockChain)?.nativeAsset ?? '';

/**
 * Called as a stake completes, in its step's transaction and before its
 * balance rows (the reward pass locks a position, then balances: the same
 * order): opens the vault's position on the chain, or opens it again once
 * everything was unstaked. A position already earning is left as it is; the
 * pass reads the new stake from the transactions.
 */
export async function openStakingPosition(
  tx: Executor,
  row: {
    orgId: string;
    vaultId: string | null;
    blockChain: string;
    asset: string | null;
    subCategory: string | null;
  },
  at: Date,
): Promise<void> {
  const terms = STAKING_REWARDS[row.blockChain];
  if (!terms || !row.vaultId || (row.subCategory ?? 'STAKE') !== 'STAKE') return;
  const nextAt = new Date(epochBoundaryFrom(at.getTime(), terms.epochMs) + terms.epochMs);
  await tx
    .insert(stakingPositions)
    .values({
      vaultId: row.vaultId,
      chain: row.blockChain,
      asset: stakedAsset(row),
      orgId: row.orgId,
      paidUntil: at,
      nextAt,
    })
    .onConflictDoUpdate({
      target: [stakingPositions.vaultId, stakingPositions.chain, stakingPositions.asset],
      set: {
        paidUntil: sql`case when ${stakingPositions.nextAt} is null then excluded.paid_until else ${stakingPositions.paidUntil} end`,
        carry: sql`case when ${stakingPositions.nextAt} is null then 0 else ${stakingPositions.carry} end`,
        nextAt: sql`coalesce(${stakingPositions.nextAt}, excluded.next_at)`,
      },
    });
}

/**
 * The positions of a seeded history's completed stakes: they earn from the
 * seed's time on (the seeded past paid what it paid, as CLAIMs).
 */
export function seededStakingPositions(
  rows: readonly {
    orgId: string;
    vaultId?: string | null;
    category: string;
    subCategory?: string | null;
    status: string;
    blockChain: string;
    asset?: string | null;
  }[],
  now: Date,
): (typeof stakingPositions.$inferInsert)[] {
  const positions = new Map<string, typeof stakingPositions.$inferInsert>();
  for (const r of rows) {
    const terms = STAKING_REWARDS[r.blockChain];
    if (!terms || !r.vaultId || r.category !== 'STAKE') continue;
    if (r.subCategory !== 'STAKE' || r.status !== 'COMPLETED') continue;
    const asset = stakedAsset({ asset: r.asset ?? null, blockChain: r.blockChain });
    positions.set(`${r.vaultId}\u0000${r.blockChain}\u0000${asset}`, {
      vaultId: r.vaultId,
      chain: r.blockChain,
      asset,
      orgId: r.orgId,
      paidUntil: now,
      nextAt: new Date(epochBoundaryFrom(now.getTime(), terms.epochMs) + terms.epochMs),
    });
  }
  return [...positions.values()];
}

/** What was staked over time on one position, from its transactions: see the rules above. */
async function stakeEvents(
  tx: Executor,
  position: { vaultId: string; chain: string; asset: string },
): Promise<{ events: StakeEvent[]; unstakeOnItsWay: boolean }> {
  const native = chainInfo(position.chain)?.nativeAsset;
  const rows = await tx
    .select({
      id: transactions.id,
      subCategory: transactions.subCategory,
      status: transactions.status,
      amount: transactions.amount,
      createdAt: transactions.createdAt,
      updatedAt: transactions.updatedAt,
    })
    .from(transactions)
    .where(
      and(
        eq(transactions.vaultId, position.vaultId),
        eq(transactions.category, 'STAKE'),
        eq(transactions.blockChain, position.chain),
        inArray(transactions.subCategory, ['STAKE', 'UNSTAKE']),
        position.asset === native
          ? or(eq(transactions.asset, position.asset), isNull(transactions.asset))
          : eq(transactions.asset, position.asset),
      ),
    );
  // When each completed stake completed (a seeded row may have no timeline: its last update).
  const stakes = rows.filter((r) => r.subCategory === 'STAKE' && r.status === 'COMPLETED');
  const completedAt = new Map<string, Date>();
  if (stakes.length > 0)
    for (const e of await tx
      .select({ id: transactionStatusEvents.transactionId, at: transactionStatusEvents.at })
      .from(transactionStatusEvents)
      .where(
        and(
          inArray(
            transactionStatusEvents.transactionId,
            stakes.map((r) => r.id),
          ),
          eq(transactionStatusEvents.status, 'COMPLETED'),
        ),
      ))
      completedAt.set(e.id, e.at);
  const events: StakeEvent[] = [];
  let unstakeOnItsWay = false;
  for (const r of rows) {
    const amount = r.amount ?? '0';
    if (r.subCategory === 'STAKE') {
      if (r.status === 'COMPLETED')
        events.push({ at: (completedAt.get(r.id) ?? r.updatedAt).getTime(), delta: amount });
      continue;
    }
    // An unstake claims its part when asked for; one that failed or was declined gives it back.
    if (r.status === 'FAILED' || r.status === 'DECLINED') continue;
    if (r.status !== 'COMPLETED') unstakeOnItsWay = true;
    events.push({ at: r.createdAt.getTime(), delta: neg(amount) });
  }
  // A failed or declined unstake never stopped accrual: it is left out above rather than
  // re-added at its end, as the simulator may decide it after epochs were already paid.
  return { events, unstakeOnItsWay };
}

/**
 * Pays every epoch ended by `now` of every position due, each position in a
 * database transaction of its own (locked, so two servers never pay one
 * twice). The lifecycle simulator's pass calls it with its clock; a test
 * calls it with its test clock. Returns how many rewards were paid.
 */
export async function payStakingRewards(
  db: Database,
  now: Date,
  { maxPositions = 200 } = {},
): Promise<number> {
  const due = and(isNotNull(stakingPositions.nextAt), lte(stakingPositions.nextAt, now));
  // A plain read first: most passes find nothing due, and an empty locking transaction
  // still counts as a write on PGlite (db/read-cache.ts).
  const [any] = await db
    .select({ vaultId: stakingPositions.vaultId })
    .from(stakingPositions)
    .where(due)
    .limit(1);
  if (!any) return 0;
  let paid = 0;
  for (let n = 0; n < maxPositions; n += 1) {
    const more = await db.transaction(async (tx) => {
      const [position] = await tx
        .select()
        .from(stakingPositions)
        .where(due)
        .orderBy(asc(stakingPositions.nextAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!position) return false;
      paid += await payPosition(tx, position, now);
      return true;
    });
    if (!more) break;
  }
  return paid;
}

async function payPosition(
  tx: Executor,
  position: typeof stakingPositions.$inferSelect,
  now: Date,
): Promise<number> {
  const key = and(
    eq(stakingPositions.vaultId, position.vaultId),
    eq(stakingPositions.chain, position.chain),
    eq(stakingPositions.asset, position.asset),
  );
  const terms = STAKING_REWARDS[position.chain];
  const [asset] = await tx
    .select({ decimals: assets.decimals })
    .from(assets)
    .where(and(eq(assets.symbol, position.asset), eq(assets.blockChain, position.chain)));
  if (!terms || !asset) {
    await tx.update(stakingPositions).set({ nextAt: null }).where(key);
    return 0;
  }
  const { events, unstakeOnItsWay } = await stakeEvents(tx, position);
  const due = rewardsDue({
    events,
    terms,
    decimals: asset.decimals,
    paidUntil: position.paidUntil.getTime(),
    carry: position.carry,
    now: now.getTime(),
  });
  const pool = poolOf(position.chain);
  for (const p of due.payments) {
    await moveBalances(tx, new Date(p.at), {
      orgId: position.orgId,
      changes: [
        {
          party: { type: 'VAULT', id: position.vaultId },
          asset: position.asset,
          chain: position.chain,
          amount: p.amount,
        },
      ],
      movement: {
        kind: 'REWARD',
        transactionId: null,
        reference: null,
        memo: `staking reward: ${mul(terms.annualRate, '100')} % a year, epoch ending ${new Date(p.at).toISOString()}`,
        source: pool,
      },
    });
  }
  // Nothing staked now and no unstake that may yet fail: accrual stops (a later stake opens it again).
  const stakedNow = stakedThroughout(events, now.getTime(), now.getTime());
  const stopped = isZero(stakedNow) && !unstakeOnItsWay && due.nextAt > now.getTime();
  await tx
    .update(stakingPositions)
    .set({
      paidUntil: new Date(due.paidUntil),
      carry: due.carry,
      nextAt: stopped ? null : new Date(due.nextAt),
    })
    .where(key);
  return due.payments.length;
}
