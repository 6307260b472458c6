import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { mul, round, sum } from '#contract/decimal.ts';
import type { TransactionStatus } from '#contract/enums.ts';
import type { Holding } from '#contract/overview.ts';
import type { Transaction } from '#contract/transaction.ts';
import { canonicalDecimal, toWireTransaction } from '../../../custody/sandbox/mappers.ts';
import type { SandboxDeps } from '../../../custody/sandbox/sandbox-deps.ts';
import type { Database } from '../../../db/client.ts';
import { cachedRead } from '../../../db/read-cache.ts';
import { assets, transactions, vaultBalances, vaults } from '../../../db/schema/sandbox.ts';
import { newestFirst } from '../../../custody/sandbox/keyset.ts';
import { ON_CHAIN, withPace } from '../../../custody/sandbox/pace.ts';
import {
  IN_FLIGHT,
  type FlowTotals,
  type InFlightFacts,
  type OverviewFacts,
  type OverviewFactsQuery,
  type OverviewPort,
} from '../port.ts';

/**
 * The overview's facts over the sandbox's own tables, in five statements
 * whatever the number of vaults or transactions, each kept in the read
 * cache between writes to its tables: every vault in scope with its
 * balances and the assets' reference prices (valued as getDetailedBalances
 * values them: balance × price to the cent, through the decimal module),
 * the completed transactions' flows summed in NUMERIC by quarter hour
 * (transactions_org_status_created_idx finds them) with the hour where the
 * last day starts read row by row, and the transactions in flight counted
 * by status, those on the chain read for their pace.
 *
 * The flows follow the custody API's fields as the composed derivation reads
 * them (overview.ts): a transaction completed when it was last updated; a
 * party that is a vault names it, otherwise the transaction's own vault is
 * the source of an OUTGOING one and the destination of an INCOMING one; it
 * is an outflow when it leaves the scope's vaults for anything else, an
 * inflow when it arrives from outside them.
 */
export function overviewSandbox({
  db,
  orgIdFor,
  clock,
  timeScale,
}: Pick<SandboxDeps, 'db' | 'orgIdFor' | 'clock' | 'timeScale'>): OverviewPort {
  return {
    async overviewFacts(ctx, query) {
      const orgId = await orgIdFor(ctx);
      if (!orgId)
        return {
          vaults: [],
          outflowByQuarter: [],
          lastDay: { outflow: noFlow(), inflow: noFlow() },
          inFlight: {
            byStatus: IN_FLIGHT.map((status) => ({ status, count: 0 })),
            mayBeSlow: [],
            complete: true,
          },
        };
      const [held, flows, inFlight] = await Promise.all([
        holdings(db, orgId, query),
        quarterFlows(db, orgId, query),
        // Paced by the sandbox's clock, as the transactions list paces them.
        inFlightFacts(db, orgId, query, (tx) => withPace(tx, clock.now(), timeScale)),
      ]);
      return { vaults: held, ...flows, inFlight };
    },
  };
}

const noFlow = (): FlowTotals => ({ usd: '0', count: 0, unpriced: 0 });

/** The scope's vaults (not deleted), by the sub-organization asked for or the member's. */
function vaultsInScope(orgId: string, query: OverviewFactsQuery): SQL | undefined {
  return and(
    eq(vaults.orgId, orgId),
    eq(vaults.isDeleted, false),
    query.subOrgId ? eq(vaults.subOrgId, query.subOrgId) : undefined,
    query.subOrgIds ? inArray(vaults.subOrgId, query.subOrgIds) : undefined,
  );
}

/** The key part naming a read's scope: the sub-organization asked for, or the member's. */
function scopeKey(query: OverviewFactsQuery): string {
  return `${query.subOrgId ?? ''}:${query.subOrgIds?.join(',') ?? ''}`;
}

/**
 * The scope's vaults valued, kept while no vault, balance or price is written
 * (db/read-cache.ts): nothing in it moves with the clock.
 */
function holdings(
  db: Database,
  orgId: string,
  query: OverviewFactsQuery,
): Promise<OverviewFacts['vaults']> {
  return cachedRead(
    `overview-holdings:${orgId}:${scopeKey(query)}`,
    () => readHoldings(db, orgId, query),
    [vaults, vaultBalances, assets],
  );
}

async function readHoldings(
  db: Database,
  orgId: string,
  query: OverviewFactsQuery,
): Promise<OverviewFacts['vaults']> {
  const rows = await db
    .select({
      id: vaults.id,
      name: vaults.vaultName,
      subOrgId: vaults.subOrgId,
      asset: vaultBalances.asset,
      chain: vaultBalances.chain,
      amount: vaultBalances.amount,
      price: assets.usdPrice,
    })
    .from(vaults)
    .leftJoin(vaultBalances, eq(vaultBalances.vaultId, vaults.id))
    .leftJoin(
      assets,
      and(eq(assets.symbol, vaultBalances.asset), eq(assets.blockChain, vaultBalances.chain)),
    )
    .where(vaultsInScope(orgId, query))
    // The vault list's order (newest first), each vault's lines as detailed_balances lists them.
    .orderBy(
      desc(vaults.createdAt),
      desc(vaults.id),
      asc(vaultBalances.asset),
      asc(vaultBalances.chain),
    );
  const byId = new Map<string, OverviewFacts['vaults'][number]>();
  for (const row of rows) {
    let vault = byId.get(row.id);
    if (!vault) {
      vault = { id: row.id, name: row.name, subOrgId: row.subOrgId, usd: '0', holdings: [] };
      byId.set(row.id, vault);
    }
    if (row.asset === null || row.chain === null || row.amount === null) continue;
    const balance = canonicalDecimal(row.amount);
    const price = row.price === null ? null : canonicalDecimal(row.price);
    const holding: Holding = {
      symbol: row.asset,
      chain: row.chain,
      balance,
      price,
      usd: price === null ? null : round(mul(balance, price), 2),
    };
    vault.holdings.push(holding);
  }
  const valued = [...byId.values()];
  for (const vault of valued)
    vault.usd = sum(vault.holdings.flatMap((h) => (h.usd === null ? [] : [h.usd])));
  return valued;
}

const QUARTER_MS = 15 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** A flow's totals as the statement answers them: counts `::int`, the sum as text. */
interface Totals {
  count: number;
  usd: string;
  unpriced: number;
}

/** One quarter hour's completions. */
interface QuarterRow {
  quarter: number;
  /** Its outflow. */
  out: Totals;
  /** Its outflow and inflow completed after the latest start of a last day served: in all of them. */
  certainOut: Totals;
  certainIn: Totals;
  /** Its latest completion, in ms since the epoch. */
  latest: number;
}

/** The completions from `createdFrom` on that leave the scope or enter it. */
interface Completions {
  quarters: QuarterRow[];
  /**
   * Each completion between the earliest and the latest start of a last day
   * this answer serves (an hour), in or out: summed one by one against the
   * moment asked about. Those after it are in every such last day, summed by
   * quarter in the statement; those before it in none.
   */
  boundary: Array<{ at: number; usd: string | null; out: boolean }>;
}

/**
 * The completed flows, in two statements kept while no transaction or vault
 * is written (db/read-cache.ts) through the hour. Unlike the rest of the
 * overview they move with the clock: any moment of the hour has its last 24
 * hours start within the same hour a day before. What is kept is the
 * outflow by quarter hour with each quarter's completions after that hour
 * (in every such last day) summed in the database, and the completions
 * within that hour one by one, summed against the moment asked about. So it
 * stands until the next write or the next hour, and the work per answer is
 * bounded by an hour's completions. A completion later than the moment
 * asked for (a clock set back) is not counted: the flows are then read up
 * to that moment, not kept.
 */
async function quarterFlows(
  db: Database,
  orgId: string,
  query: OverviewFactsQuery,
): Promise<Pick<OverviewFacts, 'outflowByQuarter' | 'lastDay'>> {
  const now = query.now.getTime();
  const hour = Math.floor(now / HOUR_MS) * HOUR_MS;
  const earliest = new Date(hour - DAY_MS);
  const certain = new Date(hour + HOUR_MS - DAY_MS);
  const from = query.lastDayFrom;
  if (from >= earliest && from < certain) {
    const kept = await cachedRead(
      `overview-flows:${orgId}:${scopeKey(query)}:${query.createdFrom.toISOString()}:${hour}`,
      () => completions(db, orgId, query, { earliest, certain }),
      [transactions, vaults],
    );
    if (kept.quarters.every((q) => q.latest <= now)) return flowsAt(kept, query);
  }
  return flowsAt(
    await completions(db, orgId, query, { earliest: from, certain: from, upTo: query.now }),
    query,
  );
}

async function completions(
  db: Database,
  orgId: string,
  query: OverviewFactsQuery,
  window: { earliest: Date; certain: Date; upTo?: Date },
): Promise<Completions> {
  const { upTo } = window;
  const t = transactions;
  const ours = sql`(select ${vaults.id} from ${vaults} where ${vaultsInScope(orgId, query)})`;
  const party = (column: typeof t.source | typeof t.destination, own: 'OUTGOING' | 'INCOMING') =>
    sql`case when ${column}->>'type' = 'VAULT' then ${column}->>'id' when ${t.transactionType} = ${own} then ${t.vaultId} end`;
  const completed = db
    .select({
      usd: sql`${t.amountInUsd}`.as('usd'),
      at: sql`${t.updatedAt}`.as('at'),
      fromOurs: sql`coalesce(${party(t.source, 'OUTGOING')} in ${ours}, false)`.as('from_ours'),
      toOurs: sql`coalesce(${party(t.destination, 'INCOMING')} in ${ours}, false)`.as('to_ours'),
    })
    .from(t)
    .where(
      and(
        eq(t.orgId, orgId),
        eq(t.status, 'COMPLETED'),
        gte(t.createdAt, query.createdFrom),
        upTo ? lte(t.updatedAt, upTo) : undefined,
        query.subOrgId ? eq(t.subOrgId, query.subOrgId) : undefined,
        query.subOrgIds ? inArray(t.subOrgId, query.subOrgIds) : undefined,
      ),
    )
    // Not merged into the statements below: merged, each row's parties were tested again in
    // every total's filter, and planning that took PostgreSQL longer than running it.
    .offset(0)
    .as('completed');
  const crossing = sql`${completed.fromOurs} <> ${completed.toOurs}`;
  const out = sql`${completed.fromOurs} and not ${completed.toOurs}`;
  const into = sql`${completed.toOurs} and not ${completed.fromOurs}`;
  const after = (at: Date) => sql`${completed.at} > ${at.toISOString()}::timestamptz`;
  const totals = (when: SQL) => ({
    count: sql<number>`(count(*) filter (where ${when}))::int`,
    usd: sql<string>`coalesce(sum(${completed.usd}) filter (where ${when}), 0)::text`,
    unpriced: sql<number>`(count(*) filter (where ${when} and ${completed.usd} is null))::int`,
  });
  const quarter = sql<number>`floor(extract(epoch from ${completed.at}) / 900)::int`;
  const [quarters, boundary] = await Promise.all([
    db
      .select({
        quarter,
        out: totals(out),
        certainOut: totals(sql`${out} and ${after(window.certain)}`),
        certainIn: totals(sql`${into} and ${after(window.certain)}`),
        latest: epochMs(sql`max(${completed.at})`),
      })
      .from(completed)
      .where(crossing)
      .groupBy(quarter),
    // Read up to one moment (no hour kept), every completion is certain: no boundary to read.
    window.earliest < window.certain
      ? db
          .select({
            at: epochMs(completed.at),
            usd: sql<string | null>`${completed.usd}::text`,
            out: sql<boolean>`${out}`,
          })
          .from(completed)
          .where(
            and(
              crossing,
              after(window.earliest),
              sql`${completed.at} <= ${window.certain.toISOString()}::timestamptz`,
            ),
          )
      : [],
  ]);
  return { quarters, boundary };
}

/** An instant as milliseconds since the epoch, as a JS number (a time, not an amount). */
function epochMs(at: SQL | SQL.Aliased) {
  return (
    sql<number>`(extract(epoch from ${at}) * 1000)::float8`
      // eslint-disable-next-line no-restricted-syntax -- a time in ms, not an amount
      .mapWith(Number)
  );
}

/** The flows at the moment `query` asks about, from completions read up to it or later. */
function flowsAt(
  { quarters, boundary }: Completions,
  query: OverviewFactsQuery,
): Pick<OverviewFacts, 'outflowByQuarter' | 'lastDay'> {
  const from = query.lastDayFrom.getTime();
  const now = query.now.getTime();
  const inDay = boundary.filter((c) => c.at > from && c.at <= now);
  const lastDay = (out: boolean): FlowTotals => {
    const certain = quarters.map((q) => (out ? q.certainOut : q.certainIn));
    const flows = inDay.filter((c) => c.out === out);
    return {
      usd: sum([
        ...certain.map((c) => canonicalDecimal(c.usd)),
        ...flows.flatMap((c) => (c.usd === null ? [] : [canonicalDecimal(c.usd)])),
      ]),
      count: certain.reduce((n, c) => n + c.count, flows.length),
      unpriced: certain.reduce(
        (n, c) => n + c.unpriced,
        flows.filter((c) => c.usd === null).length,
      ),
    };
  };
  return {
    outflowByQuarter: quarters
      .filter((q) => q.out.count > 0)
      .map((q) => ({
        at: new Date(q.quarter * QUARTER_MS),
        usd: canonicalDecimal(q.out.usd),
        count: q.out.count,
        unpriced: q.out.unpriced,
      })),
    lastDay: { outflow: lastDay(true), inflow: lastDay(false) },
  };
}

/** The most transactions on the chain read for their pace: past it, the overview says it is incomplete. */
const MAX_ON_CHAIN = 5_000;

/**
 * The transactions in flight in scope, held to it as the transactions list
 * holds them (their own sub-organization): counted by status in one
 * statement, and those on the chain (the only ones with a pace) read in
 * another and paced as the list paces them, instead of every one
 * read page by page, status by status, to be counted.
 */
async function inFlightFacts(
  db: Database,
  orgId: string,
  query: OverviewFactsQuery,
  pace: (tx: Transaction) => Transaction,
): Promise<InFlightFacts> {
  const t = transactions;
  const inScope = (statuses: readonly TransactionStatus[]) =>
    and(
      eq(t.orgId, orgId),
      inArray(t.status, [...statuses]),
      query.subOrgId ? eq(t.subOrgId, query.subOrgId) : undefined,
      query.subOrgIds ? inArray(t.subOrgId, query.subOrgIds) : undefined,
    );
  // Reused while no transaction is written (db/read-cache.ts), as the list's pages it replaces
  // were; the pace is applied after, since the clock moves while the rows do not.
  const { counts, onChain } = await cachedRead(
    `overview-in-flight:${orgId}:${scopeKey(query)}`,
    async () => {
      const [counted, rows] = await Promise.all([
        db
          .select({ status: t.status, count: sql<number>`count(*)::int` })
          .from(t)
          .where(inScope(IN_FLIGHT))
          .groupBy(t.status),
        db
          .select()
          .from(t)
          .where(inScope(ON_CHAIN))
          .orderBy(...newestFirst(t))
          .limit(MAX_ON_CHAIN + 1),
      ]);
      return { counts: counted, onChain: rows.map(toWireTransaction) };
    },
    [transactions],
  );
  const countOf = new Map(counts.map((c) => [c.status, c.count]));
  return {
    byStatus: IN_FLIGHT.map((status) => ({ status, count: countOf.get(status) ?? 0 })),
    mayBeSlow: onChain.slice(0, MAX_ON_CHAIN).map(pace),
    complete: onChain.length <= MAX_ON_CHAIN,
  };
}
