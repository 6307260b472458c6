import { and, asc, desc, eq, gt, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { add } from '#contract/decimal.ts';
import { canonicalDecimal } from '../../../custody/sandbox/mappers.ts';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { SandboxDeps } from '../../../custody/sandbox/sandbox-deps.ts';
import type { Database } from '../../../db/client.ts';
import { ledgerDays, ledgerMovements, vaults } from '../../../db/schema/sandbox.ts';
import { dayFlows } from '../day-flows.ts';
import { buildHistory, dayOf, historyStart, type DayNet } from '../history.ts';
import type { LedgerFilter, LedgerPort } from '../port.ts';
import {
  readStatementCursor,
  statementCursor,
  statementLine,
  statementPlan,
  statementTotals,
  type AssetSums,
  type StatementPlan,
} from '../statement.ts';

/**
 * The ledger over the sandbox's movements (`sandbox.ledger_movements`,
 * written by custody/sandbox/engine/balances.ts as balances move). Sums run
 * in PostgreSQL's NUMERIC; what is added up here goes through the decimal
 * module.
 */
export function ledgerSandbox({
  db,
  clock,
  orgIdFor,
}: Pick<SandboxDeps, 'db' | 'clock' | 'orgIdFor'>): LedgerPort {
  const orgOf = async (ctx: Parameters<SandboxDeps['orgIdFor']>[0]) => {
    const orgId = await orgIdFor(ctx);
    if (!orgId) throw new ApiError(404, ERROR_CODES.notFound, 'No organization yet');
    return orgId;
  };
  return {
    ledgerHistory: async (ctx, query) => {
      const orgId = await orgOf(ctx);
      const start = historyStart(clock.now(), query.days);
      const [nets, flows] = await Promise.all([
        dayNets(db, (t) => whose(t, orgId, query), start),
        dayFlows(db, ledgerMovements, whose(ledgerMovements, orgId, query), start),
      ]);
      return buildHistory(start, query.days, nets, flows);
    },
    ledgerStatement: async (ctx, query) => {
      const orgId = await orgOf(ctx);
      return statement(db, (t) => whose(t, orgId, query), query);
    },
  };
}

/** The rows of the vaults asked for, within the organization, of movements or of days. */
function whose(
  table: typeof ledgerMovements | typeof ledgerDays,
  orgId: string,
  filter: LedgerFilter,
): SQL {
  const own = eq(table.orgId, orgId);
  if (filter.vaultId) return and(own, eq(table.vaultId, filter.vaultId)) ?? own;
  const subOrgs = filter.subOrgId ? [filter.subOrgId] : filter.subOrgIds;
  if (!subOrgs) return own;
  return and(own, inArray(table.vaultId, vaultsOf(subOrgs, orgId))) ?? own;
}

function vaultsOf(subOrgIds: string[], orgId: string): SQL {
  return sql`(select ${vaults.id} from ${vaults} where ${vaults.orgId} = ${orgId} and ${inArray(vaults.subOrgId, subOrgIds)})`;
}

/** Per vault, asset and chain, its latest day before `day`: the closing and the price then. */
async function closingsBefore(db: Database, where: SQL, day: string) {
  return db
    .selectDistinctOn([ledgerDays.vaultId, ledgerDays.asset, ledgerDays.chain], {
      asset: ledgerDays.asset,
      chain: ledgerDays.chain,
      closing: ledgerDays.closing,
      lastPrice: ledgerDays.lastPrice,
      lastAt: ledgerDays.lastAt,
    })
    .from(ledgerDays)
    .where(and(where, lt(ledgerDays.day, day)))
    .orderBy(ledgerDays.vaultId, ledgerDays.asset, ledgerDays.chain, desc(ledgerDays.day));
}

/** The history's days from the daily summary: what came before, then each day's net and last price. */
async function dayNets(
  db: Database,
  filter: (t: typeof ledgerDays) => SQL,
  start: Date,
): Promise<DayNet[]> {
  const where = filter(ledgerDays);
  const startDay = dayOf(start);
  const before = new Map<string, DayNet & { lastAt: number }>();
  for (const c of await closingsBefore(db, where, startDay)) {
    const key = `${c.asset}\u0000${c.chain}`;
    const found = before.get(key);
    const at = c.lastAt.getTime();
    if (!found) {
      before.set(key, {
        asset: c.asset,
        chain: c.chain,
        day: null,
        net: c.closing,
        lastPrice: c.lastPrice,
        lastAt: at,
      });
      continue;
    }
    found.net = add(found.net, c.closing);
    if (at > found.lastAt) Object.assign(found, { lastPrice: c.lastPrice, lastAt: at });
  }
  const day = sql<string>`to_char(${ledgerDays.day}, 'YYYY-MM-DD')`;
  const daily = await db
    .select({
      asset: ledgerDays.asset,
      chain: ledgerDays.chain,
      day,
      net: sql<string>`sum(${ledgerDays.amounts} - ${ledgerDays.fees})`,
      lastPrice: sql<string>`(array_agg(${ledgerDays.lastPrice} order by ${ledgerDays.lastAt} desc))[1]`,
    })
    .from(ledgerDays)
    .where(and(where, gte(ledgerDays.day, startDay)))
    .groupBy(ledgerDays.asset, ledgerDays.chain, ledgerDays.day);
  return [...[...before.values()].map(({ lastAt: _lastAt, ...r }) => r), ...daily];
}

async function statement(
  db: Database,
  where: (t: typeof ledgerMovements | typeof ledgerDays) => SQL,
  query: { from: Date; to: Date; page: { limit: number; cursor?: string | undefined } },
) {
  const { from, to } = query;
  const after = query.page.cursor ? readStatementCursor(query.page.cursor) : null;
  const plan = statementPlan(from, to);
  const [sums, rows] = await Promise.all([
    statementSums(db, where, from, plan),
    db
      .select({
        id: ledgerMovements.id,
        at: ledgerMovements.at,
        vaultId: ledgerMovements.vaultId,
        asset: ledgerMovements.asset,
        chain: ledgerMovements.chain,
        kind: ledgerMovements.kind,
        amount: ledgerMovements.amount,
        balanceAfter: ledgerMovements.balanceAfter,
        usdPrice: ledgerMovements.usdPrice,
        counterparty: ledgerMovements.counterparty,
        reference: ledgerMovements.reference,
        memo: ledgerMovements.memo,
        transactionId: ledgerMovements.transactionId,
        valueAt: ledgerMovements.valueAt,
      })
      .from(ledgerMovements)
      .where(
        and(
          where(ledgerMovements),
          gte(ledgerMovements.at, from),
          lt(ledgerMovements.at, to),
          after
            ? or(
                gt(ledgerMovements.at, after.at),
                and(eq(ledgerMovements.at, after.at), gt(ledgerMovements.id, after.id)),
              )
            : undefined,
        ),
      )
      .orderBy(asc(ledgerMovements.at), asc(ledgerMovements.id))
      .limit(query.page.limit + 1),
  ]);
  const page = rows.slice(0, query.page.limit);
  const last = page.at(-1);
  const hasNext = rows.length > query.page.limit;
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    totals: statementTotals(sums),
    results: page.map(statementLine),
    nextCursor: hasNext && last ? statementCursor(last) : null,
    hasNext,
  };
}

/**
 * A statement's totals per asset in one statement (each round trip counts
 * on a busy machine): the opening is the summary's closing of the day before
 * the period's first UTC day plus that day's movements before the period;
 * the amounts and fees are the summary's whole days plus the movements of
 * the parts of a day at either end.
 */
async function statementSums(
  db: Database,
  where: (t: typeof ledgerMovements | typeof ledgerDays) => SQL,
  from: Date,
  plan: StatementPlan,
): Promise<AssetSums[]> {
  const m = ledgerMovements;
  const d = ledgerDays;
  const spans = [...(plan.openingPart ? [plan.openingPart] : []), ...plan.parts];
  const inSpans = or(...spans.map((p) => and(gte(m.at, p.from), lt(m.at, p.to))));
  const parts: SQL[] = [
    sql`(select distinct on (${d.vaultId}, ${d.asset}, ${d.chain}) ${d.asset} as asset, ${d.chain} as chain,
      ${d.closing} as opening, 0::numeric as amounts, 0::numeric as fees
      from ${d} where ${and(where(d), lt(d.day, plan.openingDay))}
      order by ${d.vaultId}, ${d.asset}, ${d.chain}, ${d.day} desc)`,
  ];
  if (inSpans)
    parts.push(sql`(select ${m.asset}, ${m.chain},
      case when ${m.at} < ${from.toISOString()}::timestamptz then ${m.amount} else 0 end,
      case when ${m.at} >= ${from.toISOString()}::timestamptz and ${m.kind} <> 'FEE' then ${m.amount} else 0 end,
      case when ${m.at} >= ${from.toISOString()}::timestamptz and ${m.kind} = 'FEE' then -${m.amount} else 0 end
      from ${m} where ${and(where(m), inSpans)})`);
  if (plan.days)
    parts.push(sql`(select ${d.asset}, ${d.chain}, 0, ${d.amounts}, ${d.fees}
      from ${d} where ${and(where(d), gte(d.day, plan.days.from), lt(d.day, plan.days.to))})`);
  const rows = (await db.execute(sql`
    select asset, chain, sum(opening)::text as opening, sum(amounts)::text as amounts, sum(fees)::text as fees
    from (${sql.join(parts, sql` union all `)}) x group by asset, chain`)) as unknown as {
    rows: AssetSums[];
  };
  return rows.rows.map((r) => ({
    asset: r.asset,
    chain: r.chain,
    opening: canonicalDecimal(r.opening),
    amounts: canonicalDecimal(r.amounts),
    fees: canonicalDecimal(r.fees),
  }));
}
