import { and, gt, lte, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { LiveEvent } from '#contract/live-events.ts';

/** One event of a durable log, with its place in it. */
export interface LiveRow {
  id: number;
  /** Null: a row of the log that is not the console's to tell (another organization's). */
  event: LiveEvent | null;
}

/**
 * A durable, ordered log of status changes that the event stream tails
 * (hub.ts): ids only grow, a row once committed never changes. Two exist: the
 * sandbox's own record of every status change (sandbox/status-source.ts) and
 * the console's store of the custody service's webhooks (custody-source.ts).
 */
export interface LiveSource {
  /** The `schema.table` it reads: on PGlite their write counts say when to look (db/read-cache.ts). */
  readonly tables: readonly string[];
  /** The highest id stored now (0 for none). */
  head(): Promise<number>;
  /** Up to `limit` rows with ids above `after` and at most `upTo`, in id order. */
  after(after: number, limit: number, upTo?: number): Promise<LiveRow[]>;
}

/** A log's rows with ids above `after` and at most `upTo`: what every source's `after` reads. */
export function idsAfter(id: PgColumn, after: number, upTo?: number): SQL | undefined {
  return and(gt(id, after), upTo === undefined ? undefined : lte(id, upTo));
}
