import { FEE_TIERS } from '#contract/enums.ts';
import { isReplaceableCategory } from '#contract/replacement.ts';
import type { Transaction } from '#contract/transaction.ts';
import { slowAfterMs, type OnChainStatus } from '../../../custody/sandbox/fee-model.ts';

const ON_CHAIN: readonly string[] = ['SUBMITTED', 'WAITING_CONFIRMATION'] satisfies OnChainStatus[];

/**
 * A transaction with `slowAfter` (when it passes its chain and tier's usual
 * time, from the simulator's own timing: fee-model.ts `slowAfterMs`) and
 * `slowerThanUsual` (whether `now` is past it), for one on the chain:
 * SUBMITTED or WAITING_CONFIRMATION, counted from when it entered that
 * status (`updatedAt`: only a status change moves it). A ramp or FX is a
 * provider's operation that keeps its own time, so it gets neither; nor
 * does a chain the fee model has no timing for.
 *
 * Added after the read cache, since `now` moves while the rows do not.
 */
export function withPace(tx: Transaction, now: Date, timeScale: number): Transaction {
  const status = tx.status;
  if (!status || !ON_CHAIN.includes(status) || !isReplaceableCategory(tx.category)) return tx;
  const since = Date.parse(tx.updatedAt ?? '');
  if (!Number.isFinite(since)) return tx;
  let limit: number;
  try {
    // The simulator's default for a row without a tier (engine/steps.ts): the create's, HIGH.
    limit = slowAfterMs(
      tx.blockChain ?? '',
      FEE_TIERS.find((tier) => tier === tx.gasParams?.feeTier) ?? 'HIGH',
      status as OnChainStatus,
      timeScale,
    );
  } catch {
    return tx;
  }
  const slowAfter = since + limit;
  return {
    ...tx,
    slowAfter: new Date(slowAfter).toISOString(),
    slowerThanUsual: now.getTime() >= slowAfter,
  };
}
