import { and, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import { add } from '#contract/decimal.ts';
import type { LedgerReconstruction } from '#contract/ledger.ts';
import type { Party } from '#contract/transaction-record.ts';
import type { Database } from '../../../db/client.ts';
import { upstreamLedgerMovements } from '../../../db/schema/console.ts';
import type { UpstreamDeps } from '../../../custody/upstream/upstream-deps.ts';
import { dayFlows } from '../day-flows.ts';
import { buildHistory, historyStart, type DayNet } from '../history.ts';
import type { LedgerFilter, LedgerPort } from '../port.ts';
import {
  readStatementCursor,
  statementCursor,
  statementLine,
  statementTotals,
  type MovementRow,
} from '../statement.ts';
import { syncStanding, syncUpstreamLedger } from './sync.ts';

/**
 * The ledger in upstream mode: the custody API keeps no balance history, so
 * the console rebuilds it in its own database from the API's transactions
 * and balances (sync.ts) and answers the same reads as the sandbox's from
 * there, each marked `reconstructed` with the time before which nothing is
 * known. A read syncs first when the last sync is older than `syncEveryMs`;
 * when the custody API cannot be read, the ledger as last read is answered
 * (its `syncedAt` says when), unless it was never read or a sync cut short
 * has written pages it has not yet balanced (the read fails; the next one
 * goes on from there).
 */
export function ledgerUpstream(
  deps: Pick<UpstreamDeps, 'db' | 'clock' | 'read' | 'listPage'>,
  options: { syncEveryMs?: number; pageSize?: number } = {},
): LedgerPort {
  const { db, clock } = deps;
  const every = options.syncEveryMs ?? 60_000;
  const sync = options.pageSize === undefined ? {} : { pageSize: options.pageSize };
  let running: Promise<unknown> | null = null;

  async function synced(): Promise<LedgerReconstruction> {
    const standing = await syncStanding(db);
    const fresh = standing && clock.now().getTime() - standing.syncedAt.getTime() < every;
    if (!fresh) {
      // One sync at a time in this server; readers arriving meanwhile wait for it.
      running ??= syncUpstreamLedger(deps, sync).finally(() => {
        running = null;
      });
      try {
        await running;
      } catch (error) {
        // The ledger as last read, unless a sync cut short left pages not yet balanced.
        const after = await syncStanding(db);
        if (!after || after.partial) throw error;
      }
    }
    const now = await syncStanding(db);
    if (!now) throw new Error('the upstream ledger has not been read');
    return { knownFrom: now.knownFrom.toISOString(), syncedAt: now.syncedAt.toISOString() };
  }

  return {
    ledgerHistory: async (_ctx, query) => {
      const reconstructed = await synced();
      let start = historyStart(clock.now(), query.days);
      let days = query.days;
      // Days before the first known instant are left out, not shown as nothing held.
      const knownDay = historyStart(new Date(reconstructed.knownFrom), 1);
      if (knownDay.getTime() > start.getTime()) {
        days -= Math.round((knownDay.getTime() - start.getTime()) / 86_400_000);
        start = knownDay;
      }
      days = Math.max(days, 1);
      const where = whose(query);
      const [nets, flows] = await Promise.all([
        dayNets(db, where, start),
        dayFlows(db, upstreamLedgerMovements, where, start),
      ]);
      return { ...buildHistory(start, days, nets, flows), reconstructed };
    },
    ledgerStatement: async (_ctx, query) => {
      const reconstructed = await synced();
      return { ...(await statement(db, whose(query), query)), reconstructed };
    },
  };
}

const m = upstreamLedgerMovements;

function whose(filter: LedgerFilter): SQL | undefined {
  if (filter.vaultId) return eq(m.vaultId, filter.vaultId);
  const subOrgs = filter.subOrgId ? [filter.subOrgId] : filter.subOrgIds;
  return subOrgs ? inArray(m.subOrgId, subOrgs) : undefined;
}

const canonical = (value: string) => add(value, '0');
const lastPrice = sql<string>`((array_agg(${m.usdPrice} order by ${m.at} desc, ${m.id} desc))[1])::text`;

async function dayNets(db: Database, where: SQL | undefined, start: Date): Promise<DayNet[]> {
  const before = await db
    .select({
      asset: m.asset,
      chain: m.chain,
      net: sql<string>`sum(${m.amount})::text`,
      lastPrice,
    })
    .from(m)
    .where(and(where, lt(m.at, start)))
    .groupBy(m.asset, m.chain);
  const day = sql<string>`to_char(${m.at} at time zone 'UTC', 'YYYY-MM-DD')`;
  const daily = await db
    .select({
      asset: m.asset,
      chain: m.chain,
      day,
      net: sql<string>`sum(${m.amount})::text`,
      lastPrice,
    })
    .from(m)
    .where(and(where, gte(m.at, start)))
    .groupBy(m.asset, m.chain, day);
  return [
    ...before.map((r) => ({
      ...r,
      day: null,
      net: canonical(r.net),
      lastPrice: canonical(r.lastPrice),
    })),
    ...daily.map((r) => ({ ...r, net: canonical(r.net), lastPrice: canonical(r.lastPrice) })),
  ];
}

interface StatementRow {
  id: string;
  at: string;
  vault_id: string;
  asset: string;
  chain: string;
  kind: MovementRow['kind'];
  amount: string;
  balance_after: string;
  usd_price: string;
  counterparty: Party | null;
  reference: string | null;
  memo: string | null;
  transaction_id: string | null;
}

async function statement(
  db: Database,
  where: SQL | undefined,
  query: { from: Date; to: Date; page: { limit: number; cursor?: string | undefined } },
) {
  const { from, to } = query;
  const after = query.page.cursor ? readStatementCursor(query.page.cursor) : null;
  const fromText = from.toISOString();
  const sums = await db
    .select({
      asset: m.asset,
      chain: m.chain,
      opening: sql<string>`sum(case when ${m.at} < ${fromText}::timestamptz then ${m.amount} else 0 end)::text`,
      amounts: sql<string>`sum(case when ${m.at} >= ${fromText}::timestamptz and ${m.kind} <> 'FEE' then ${m.amount} else 0 end)::text`,
      fees: sql<string>`sum(case when ${m.at} >= ${fromText}::timestamptz and ${m.kind} = 'FEE' then -${m.amount} else 0 end)::text`,
    })
    .from(m)
    .where(and(where, lt(m.at, to)))
    .groupBy(m.asset, m.chain);
  // The balance after each movement is the running sum of its vault's asset, oldest first.
  const cursorAt = after ? after.at.toISOString() : null;
  const result = (await db.execute(sql`
    select * from (
      select ${m.id}::text as id, ${m.at} as at, ${m.vaultId} as vault_id, ${m.asset} as asset,
        ${m.chain} as chain, ${m.kind} as kind, ${m.amount}::text as amount,
        (sum(${m.amount}) over (partition by ${m.vaultId}, ${m.asset}, ${m.chain} order by ${m.at}, ${m.id}))::text as balance_after,
        ${m.usdPrice}::text as usd_price, ${m.counterparty} as counterparty, ${m.reference} as reference,
        ${m.memo} as memo, ${m.transactionId} as transaction_id
      from ${m} where ${and(where, lt(m.at, to)) ?? sql`true`}
    ) x
    where x.at >= ${fromText}::timestamptz
      ${cursorAt ? sql`and (x.at > ${cursorAt}::timestamptz or (x.at = ${cursorAt}::timestamptz and x.id::bigint > ${after?.id ?? 0}))` : sql``}
    order by x.at, x.id::bigint
    limit ${query.page.limit + 1}`)) as unknown as { rows: StatementRow[] };
  const rows = result.rows.map((r): MovementRow => ({
    // eslint-disable-next-line no-restricted-syntax -- a row id read back as text
    id: Number(r.id),
    at: new Date(r.at),
    vaultId: r.vault_id,
    asset: r.asset,
    chain: r.chain,
    kind: r.kind,
    amount: canonical(r.amount),
    balanceAfter: canonical(r.balance_after),
    usdPrice: canonical(r.usd_price),
    counterparty: r.counterparty,
    reference: r.reference,
    memo: r.memo,
    transactionId: r.transaction_id,
    valueAt: null,
  }));
  const page = rows.slice(0, query.page.limit);
  const last = page.at(-1);
  const hasNext = rows.length > query.page.limit;
  return {
    from: fromText,
    to: to.toISOString(),
    totals: statementTotals(
      sums.map((s) => ({
        asset: s.asset,
        chain: s.chain,
        opening: canonical(s.opening),
        amounts: canonical(s.amounts),
        fees: canonical(s.fees),
      })),
    ),
    results: page.map(statementLine),
    nextCursor: hasNext && last ? statementCursor(last) : null,
    hasNext,
  };
}
