import { and, eq, sql } from 'drizzle-orm';
import { cmp, isNegative } from '#contract/decimal.ts';
import { transactions } from '../../../db/schema/sandbox.ts';
import { ENGINE_CODES, Problems } from './problems.ts';
import type { Executor } from './transitions.ts';

/** The advisory lock's first key (the second is a hash of the vault's id); any constant every server shares. */
const STAKE_LOCK = 0x756e7374; // "unst"

interface Unstake {
  vaultId: string;
  blockChain: string;
  asset: string | null;
  amount: string | null;
  resourceType: string | null;
}

/**
 * An unstake takes back at most what the vault has staked on the chain (of
 * that asset and TRON resource): its completed stakes, less every unstake
 * not failed or declined — one still on its way has already claimed its
 * part. Run in the create's own database transaction, under a lock on the
 * vault every server takes, so two unstakes sent at once are judged one
 * after the other, each seeing the one before it (on PGlite transactions
 * already run one at a time).
 */
export async function refuseUnstakeBeyondStaked(tx: Executor, unstake: Unstake): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${STAKE_LOCK}, hashtext(${unstake.vaultId}))`);
  const staked = await stakedOf(tx, unstake);
  const amount = unstake.amount ?? '0';
  if (cmp(amount, staked) <= 0) return;
  const problems = new Problems();
  problems.add(
    'amount',
    ENGINE_CODES.unstakeExceedsStaked,
    `amount (${amount}) is more than the vault has staked on ${unstake.blockChain}: staked ${staked} ${unstake.asset ?? ''}`.trim() +
      ' (unstakes on their way count as taken back)',
  );
  problems.throwIfAny();
}

/**
 * What the vault has staked on the chain, of that asset and TRON resource, by
 * the rule above: the figure an unstake is judged against, and the one the
 * console's staked read answers. Never negative, without trailing zeros.
 */
export async function stakedOf(
  tx: Executor,
  of: Pick<Unstake, 'vaultId' | 'blockChain' | 'asset' | 'resourceType'>,
): Promise<string> {
  const [row] = await tx
    .select({
      staked: sql<string>`(coalesce(sum(${transactions.amount}) filter (where ${transactions.subCategory} = 'STAKE' and ${transactions.status} = 'COMPLETED'), 0) - coalesce(sum(${transactions.amount}) filter (where ${transactions.subCategory} = 'UNSTAKE' and ${transactions.status} not in ('FAILED', 'DECLINED')), 0))::text`,
    })
    .from(transactions)
    .where(
      and(
        eq(transactions.vaultId, of.vaultId),
        eq(transactions.category, 'STAKE'),
        eq(transactions.blockChain, of.blockChain),
        sql`${transactions.asset} is not distinct from ${of.asset}`,
        sql`${transactions.resourceType} is not distinct from ${of.resourceType}`,
      ),
    );
  const counted = row?.staked ?? '0';
  return isNegative(counted) ? '0' : counted.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '');
}
