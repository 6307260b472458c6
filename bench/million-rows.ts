import { sql } from 'drizzle-orm';
import type { Database } from '../src/server/db/client.ts';

/**
 * Bulk rows for the deep-paging figure: `count` completed transfers made
 * inside the database (INSERT … SELECT FROM generate_series, in batches so
 * PGlite's memory stays bounded), all older than the seeded history. Row g
 * is created at `newestAt − (g − 1) × spacingMs`, so every created_at is
 * distinct and the bench knows where row g sits without asking.
 *
 * As any bulk load does, the table's secondary indexes are dropped first and
 * rebuilt from their own definitions afterwards (one sort each instead of a
 * million index insertions); the primary key stays and checks every row.
 */

export interface InsertPlan {
  count: number;
  batchSize: number;
  /** ISO time of row 1, the newest bench row. */
  newestAt: string;
  spacingMs: number;
}

export interface InsertTiming {
  rows: number;
  batches: number;
  /** The INSERT … SELECT statements. */
  insertMs: number;
  /** Rebuilding the secondary indexes. */
  indexMs: number;
  indexes: number;
  analyzeMs: number;
  totalMs: number;
}

/** Where row `g` of the plan sits in time. */
export function benchRowTime(plan: InsertPlan, g: number): Date {
  return new Date(new Date(plan.newestAt).getTime() - (g - 1) * plan.spacingMs);
}

export async function insertBenchTransactions(
  db: Database,
  plan: InsertPlan,
): Promise<InsertTiming> {
  const started = performance.now();
  // Both drivers answer { rows }; the shared query builder types the result as unknown.
  const listed = (await db.execute(sql`
    SELECT indexname AS name, indexdef AS definition FROM pg_indexes
    WHERE schemaname = 'sandbox' AND tablename = 'transactions'
      AND indexname NOT IN (
        SELECT conname FROM pg_constraint WHERE conrelid = 'sandbox.transactions'::regclass
      )
  `)) as unknown as { rows: Array<{ name: string; definition: string }> };
  const indexes = listed.rows;
  for (const index of indexes) await db.execute(sql.raw(`DROP INDEX sandbox."${index.name}"`));
  let batches: number;
  let insertMs: number;
  try {
    batches = await insertBatches(db, plan);
    insertMs = performance.now() - started;
  } finally {
    // Even after a failed insert: the table keeps the indexes it had.
    for (const index of indexes) await db.execute(sql.raw(index.definition));
  }
  const indexMs = performance.now() - started - insertMs;
  const analyzeStarted = performance.now();
  await db.execute(sql`ANALYZE sandbox.transactions`);
  const analyzeMs = performance.now() - analyzeStarted;
  return {
    rows: plan.count,
    batches,
    insertMs,
    indexMs,
    indexes: indexes.length,
    analyzeMs,
    totalMs: performance.now() - started,
  };
}

async function insertBatches(db: Database, plan: InsertPlan): Promise<number> {
  let batches = 0;
  for (let from = 1; from <= plan.count; from += plan.batchSize) {
    const to = Math.min(plan.count, from + plan.batchSize - 1);
    // One vault of the seeded organization is every row's source; the shape is a real transfer's.
    await db.execute(sql`
      INSERT INTO sandbox.transactions (
        id, org_id, sub_org_id, vault_id, status, category, sub_category, transaction_type,
        block_chain, asset, amount, amount_in_usd, source, destination, tx_hash,
        created_by_id, created_by_type, created_at, updated_at
      )
      SELECT
        'bench-' || lpad(g::text, 8, '0'), v.org_id, v.sub_org_id, v.id,
        'COMPLETED', 'TRANSFER', 'EXTERNAL_TRANSFER', 'OUTGOING',
        'ETHEREUM', 'ETH', (g % 997 + 1)::numeric / 100, (g % 997 + 1)::numeric * 30,
        jsonb_build_object('type', 'VAULT', 'id', v.id, 'chain', 'ETHEREUM'),
        jsonb_build_object('type', 'EXTERNAL_ADDRESS', 'address', '0x' || lpad(to_hex(g::bigint * 7919), 40, '0'), 'chain', 'ETHEREUM'),
        '0x' || lpad(to_hex(g), 64, '0'),
        'bench', 'API_USER', ts, ts
      FROM generate_series(${from}::int, ${to}::int) AS g
      CROSS JOIN LATERAL (
        SELECT ${plan.newestAt}::timestamptz - (g - 1) * (${plan.spacingMs}::int * interval '1 millisecond') AS ts
      ) AS t
      CROSS JOIN (
        SELECT id, org_id, sub_org_id FROM sandbox.vaults ORDER BY created_at, id LIMIT 1
      ) AS v
    `);
    batches += 1;
  }
  return batches;
}
