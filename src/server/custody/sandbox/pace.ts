import { FEE_TIERS } from '#contract/enums.ts';
import { isReplaceableCategory } from '#contract/replacement.ts';
import type { Transaction } from '#contract/transaction.ts';
import { isSharedAnswer, shareAnswer } from '../../db/read-cache.ts';
import { slowAfterMs, type OnChainStatus } from './fee-model.ts';

/** The statuses a transaction can be slower than usual in: on the chain. */
export const ON_CHAIN: readonly OnChainStatus[] = ['SUBMITTED', 'WAITING_CONFIRMATION'];

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
  const slowAfter = slowAfterOf(tx, timeScale);
  if (slowAfter === undefined) return tx;
  return {
    ...tx,
    slowAfter: new Date(slowAfter).toISOString(),
    slowerThanUsual: now.getTime() >= slowAfter,
  };
}

/** When `tx` passes its usual time on the chain (ms since the epoch); undefined if it has none. */
function slowAfterOf(tx: Transaction, timeScale: number): number | undefined {
  const status = tx.status;
  if (
    !status ||
    !(ON_CHAIN as readonly string[]).includes(status) ||
    !isReplaceableCategory(tx.category)
  )
    return undefined;
  const since = Date.parse(tx.updatedAt ?? '');
  if (!Number.isFinite(since)) return undefined;
  try {
    // The simulator's default for a row without a tier (engine/steps.ts): the create's, HIGH.
    return (
      since +
      slowAfterMs(
        tx.blockChain ?? '',
        FEE_TIERS.find((tier) => tier === tx.gasParams?.feeTier) ?? 'HIGH',
        status as OnChainStatus,
        timeScale,
      )
    );
  } catch {
    return undefined;
  }
}

interface Kept {
  /** The time it was paced at, and the first time after it when a row's flag turns. */
  from: number;
  until: number;
  value: unknown;
}

// Keyed by the read cache's shared answer: dropped with it when the cache lets it go.
const kept = new WeakMap<object, Kept>();

/**
 * `value` (a transaction or a page of them, as `rowsOf` finds its rows)
 * paced at `now`. An answer the read cache shares (db/read-cache.ts) is
 * paced once and the result kept beside it, shared in turn, until the
 * first moment a row's `slowerThanUsual` turns (or the clock goes back):
 * the list page answered that way is the same object each time, so its
 * JSON and compressed bytes are made once (http/compress-json.ts) instead
 * of once per request, which they were while every answer was a new copy.
 */
function paced<T extends object>(
  value: T,
  now: Date,
  timeScale: number,
  pace: (value: T) => T,
  rows: (value: T) => readonly Transaction[],
): T {
  const at = now.getTime();
  const shared = isSharedAnswer(value);
  const found = shared ? kept.get(value) : undefined;
  if (found && at >= found.from && at < found.until) return found.value as T;
  const result = pace(value);
  if (!shared) return result;
  let until = Number.POSITIVE_INFINITY;
  for (const tx of rows(value)) {
    const slowAfter = slowAfterOf(tx, timeScale);
    if (slowAfter !== undefined && slowAfter > at) until = Math.min(until, slowAfter);
  }
  kept.set(value, { from: at, until, value: result });
  shareAnswer(result);
  return result;
}

/** A transaction read from the cache, with its pace at `now` (withPace). */
export function pacedTransaction(tx: Transaction, now: Date, timeScale: number): Transaction {
  return paced(
    tx,
    now,
    timeScale,
    (one) => withPace(one, now, timeScale),
    (one) => [one],
  );
}

/** A page of transactions read from the cache, each row with its pace at `now` (withPace). */
export function pacedPage<P extends { results: Transaction[] }>(
  page: P,
  now: Date,
  timeScale: number,
): P {
  return paced(
    page,
    now,
    timeScale,
    (p) => ({ ...p, results: p.results.map((tx) => withPace(tx, now, timeScale)) }),
    (p) => p.results,
  );
}
