import { TRANSACTION_LIFECYCLE, type TransactionStatus } from '#contract/enums.ts';
import type { SeedRandom } from './random.ts';

/**
 * The statuses a seeded transaction passed through to reach its current one,
 * and when: the same edges the lifecycle simulator walks.
 */

export type LifecycleVariant =
  /** Created by the organization, approved, signed, broadcast… */
  | 'outgoing'
  /** Seen arriving on chain: no approval, no signing. */
  | 'incoming'
  /** FAILED at signing: the vault could not cover amount plus fee. */
  | 'insufficient'
  /** FAILED after broadcast: the chain reverted it (the fee is spent). */
  | 'reverted';

export function statusPath(
  status: TransactionStatus,
  variant: LifecycleVariant,
): TransactionStatus[] {
  if (status === 'DRAFT') return ['DRAFT'];
  if (status === 'DECLINED') return ['PENDING', 'DECLINED'];
  if (status === 'FAILED') {
    return variant === 'insufficient'
      ? ['PENDING', 'APPROVED', 'FAILED']
      : ['PENDING', 'APPROVED', 'SIGNED', 'SUBMITTED', 'WAITING_CONFIRMATION', 'FAILED'];
  }
  if (variant === 'incoming') {
    return status === 'COMPLETED'
      ? ['WAITING_CONFIRMATION', 'COMPLETED']
      : ['WAITING_CONFIRMATION'];
  }
  return TRANSACTION_LIFECYCLE.slice(0, TRANSACTION_LIFECYCLE.indexOf(status) + 1);
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long the step into `to` took, in ms. */
function stepDuration(rng: SeedRandom, from: TransactionStatus, to: TransactionStatus): number {
  switch (to) {
    case 'APPROVED':
      return rng.int(2 * MINUTE, 45 * MINUTE);
    case 'SIGNED':
      return rng.int(3 * SECOND, 60 * SECOND);
    case 'SUBMITTED':
      return rng.int(SECOND, 15 * SECOND);
    case 'WAITING_CONFIRMATION':
      return rng.int(2 * SECOND, 2 * MINUTE);
    case 'COMPLETED':
      return rng.int(30 * SECOND, 20 * MINUTE);
    case 'DECLINED':
      return rng.int(10 * MINUTE, 2 * DAY);
    case 'FAILED':
      return from === 'APPROVED'
        ? rng.int(3 * SECOND, 60 * SECOND)
        : rng.int(30 * SECOND, 5 * MINUTE);
    default:
      return rng.int(SECOND, MINUTE);
  }
}

/** How far back a transaction in this state may have been created. */
function window(status: TransactionStatus, variant: LifecycleVariant): number {
  if (variant === 'incoming' && status !== 'COMPLETED') return 20 * MINUTE;
  switch (status) {
    case 'COMPLETED':
    case 'FAILED':
    case 'DECLINED':
      return 60 * DAY;
    case 'PENDING':
    case 'DRAFT':
      return 5 * DAY;
    default:
      // In flight: a real chain would have moved it on within hours.
      return 3 * HOUR;
  }
}

export interface TimedStatus {
  status: TransactionStatus;
  at: Date;
}

/** Event times for `path`, the last at least a few seconds before `now`. */
export function timeline(
  rng: SeedRandom,
  now: Date,
  path: readonly TransactionStatus[],
  variant: LifecycleVariant,
): TimedStatus[] {
  const offsets = [0];
  for (let i = 1; i < path.length; i += 1) {
    const prev = path[i - 1] ?? 'PENDING';
    const next = path[i] ?? 'PENDING';
    offsets.push((offsets.at(-1) ?? 0) + stepDuration(rng, prev, next));
  }
  const total = offsets.at(-1) ?? 0;
  const latestStart = now.getTime() - total - 5 * SECOND;
  const current = path.at(-1) ?? 'PENDING';
  const start = latestStart - rng.int(0, window(current, variant));
  return path.map((status, i) => ({ status, at: new Date(start + (offsets[i] ?? 0)) }));
}
