import type { PgTable } from 'drizzle-orm/pg-core';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import type { CustodyContext } from '../call-context.ts';
import type { TransactionEngine } from './engine/api.ts';
import type { FeeSurges } from './fee-surges.ts';

/**
 * What every capability's sandbox implementation gets from the composite
 * (`sandbox-backend.ts`): `capabilities/<c>/sandbox/index.ts` exports
 * `<c>Sandbox(deps: SandboxDeps)`, answering its port over these.
 */
export interface SandboxDeps {
  db: Database;
  /** One clock for everything the sandbox stamps: transactions, fees, bank accounts, decisions. */
  clock: Clock;
  /** The simulator's SANDBOX_TIME_SCALE: what a transaction's usual time is judged by. */
  timeScale: number;
  /** The transaction engine's writes (endpoints 6–8), shared with the lifecycle simulator. */
  engine: TransactionEngine;
  /** Fee surges set by hand for a sub-organization's items, which the engine's estimates read. */
  feeSurges: FeeSurges;
  /** The organization the caller acts in: its own, or the sandbox's default; null before the seed. */
  orgIdFor(ctx: CustodyContext): Promise<string | null>;
  /**
   * A list read through the read cache, keyed by `kind`, the organization and
   * the whole query (the scope's sub-orgs included); `tables` are every table
   * its load reads (db/read-cache.ts).
   */
  cachedList<T>(
    ctx: CustodyContext,
    kind: string,
    query: unknown,
    tables: readonly PgTable[],
    load: (orgId: string | null) => Promise<T>,
  ): Promise<T>;
}
