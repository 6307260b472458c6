import { and, gte, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { add } from '#contract/decimal.ts';
import type { Database } from '../../db/client.ts';
import type { DayFlow } from './history.ts';

/**
 * The columns flows are summed from: the sandbox's ledger and the upstream
 * mode's reconstruction keep their movements alike.
 */
type MovementsTable = PgTable & {
  amount: PgColumn;
  usdPrice: PgColumn;
  kind: PgColumn;
  at: PgColumn;
};

/**
 * Each UTC day's flows from the movements themselves (a day's summary keeps
 * its net, not its ins and outs), valued at each movement's own price and
 * summed in NUMERIC. An adjustment (an opening balance, or one a later sync
 * could not explain) is not a flow.
 */
export async function dayFlows(
  db: Database,
  m: MovementsTable,
  where: SQL | undefined,
  start: Date,
): Promise<DayFlow[]> {
  const usd = sql`${m.amount} * ${m.usdPrice}`;
  const flow = (when: SQL, value: SQL) =>
    sql<string>`round(sum(case when ${when} then ${value} else 0 end), 2)::text`;
  const day = sql<string>`to_char(${m.at} at time zone 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({
      day,
      inUsd: flow(sql`${m.kind} = 'AMOUNT' and ${m.amount} > 0`, usd),
      outUsd: flow(sql`${m.kind} = 'AMOUNT' and ${m.amount} < 0`, sql`-(${usd})`),
      feesUsd: flow(sql`${m.kind} = 'FEE'`, sql`-(${usd})`),
      rewardsUsd: flow(sql`${m.kind} = 'REWARD'`, usd),
    })
    .from(m)
    .where(and(where, gte(m.at, start)))
    .groupBy(day);
  const canonical = (value: string) => add(value, '0');
  return rows.map((r) => ({
    day: r.day,
    inUsd: canonical(r.inUsd),
    outUsd: canonical(r.outUsd),
    feesUsd: canonical(r.feesUsd),
    rewardsUsd: canonical(r.rewardsUsd),
  }));
}
