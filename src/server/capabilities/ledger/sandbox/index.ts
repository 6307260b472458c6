import { and, asc, eq, gt, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { SandboxDeps } from '../../../custody/sandbox/sandbox-deps.ts';
import type { Database } from '../../../db/client.ts';
import { ledgerMovements, vaults } from '../../../db/schema/sandbox.ts';
import { buildHistory, historyStart, type DayNet } from '../history.ts';
import type { LedgerFilter, LedgerPort } from '../port.ts';
import {
  readStatementCursor,
  statementCursor,
  statementLine,
  statementTotals,
  type MovementRow,
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
      return buildHistory(start, query.days, await dayNets(db, whose(orgId, query), start));
    },
    ledgerStatement: async (ctx, query) => {
      const orgId = await orgOf(ctx);
      return statement(db, whose(orgId, query), query);
    },
  };
}

/** The movements of the vaults asked for, within the organization. */
function whose(orgId: string, filter: LedgerFilter): SQL {
  const own = eq(ledgerMovements.orgId, orgId);
  if (filter.vaultId) return and(own, eq(ledgerMovements.vaultId, filter.vaultId)) ?? own;
  const subOrgs = filter.subOrgId ? [filter.subOrgId] : filter.subOrgIds;
  if (!subOrgs) return own;
  const inSubOrgs = vaultsOf(subOrgs, orgId);
  return and(own, inArray(ledgerMovements.vaultId, inSubOrgs)) ?? own;
}

function vaultsOf(subOrgIds: string[], orgId: string): SQL {
  return sql`(select ${vaults.id} from ${vaults} where ${vaults.orgId} = ${orgId} and ${inArray(vaults.subOrgId, subOrgIds)})`;
}

const lastPrice = sql<string>`(array_agg(${ledgerMovements.usdPrice} order by ${ledgerMovements.at} desc, ${ledgerMovements.id} desc))[1]`;

async function dayNets(db: Database, where: SQL, start: Date): Promise<DayNet[]> {
  const before = await db
    .select({
      asset: ledgerMovements.asset,
      chain: ledgerMovements.chain,
      net: sql<string>`sum(${ledgerMovements.amount})`,
      lastPrice,
    })
    .from(ledgerMovements)
    .where(and(where, lt(ledgerMovements.at, start)))
    .groupBy(ledgerMovements.asset, ledgerMovements.chain);
  const day = sql<string>`to_char(${ledgerMovements.at} at time zone 'UTC', 'YYYY-MM-DD')`;
  const daily = await db
    .select({
      asset: ledgerMovements.asset,
      chain: ledgerMovements.chain,
      day,
      net: sql<string>`sum(${ledgerMovements.amount})`,
      lastPrice,
    })
    .from(ledgerMovements)
    .where(and(where, gte(ledgerMovements.at, start)))
    .groupBy(ledgerMovements.asset, ledgerMovements.chain, day);
  return [...before.map((r) => ({ ...r, day: null })), ...daily];
}

async function statement(
  db: Database,
  where: SQL,
  query: { from: Date; to: Date; page: { limit: number; cursor?: string | undefined } },
) {
  const { from, to } = query;
  const after = query.page.cursor ? readStatementCursor(query.page.cursor) : null;
  const opening = await db
    .select({
      asset: ledgerMovements.asset,
      chain: ledgerMovements.chain,
      sum: sql<string>`sum(${ledgerMovements.amount})`,
    })
    .from(ledgerMovements)
    .where(and(where, lt(ledgerMovements.at, from)))
    .groupBy(ledgerMovements.asset, ledgerMovements.chain);
  const period = await db
    .select({
      asset: ledgerMovements.asset,
      chain: ledgerMovements.chain,
      amounts: sql<string>`coalesce(sum(${ledgerMovements.amount}) filter (where ${ledgerMovements.kind} <> 'FEE'), 0)`,
      fees: sql<string>`coalesce(-sum(${ledgerMovements.amount}) filter (where ${ledgerMovements.kind} = 'FEE'), 0)`,
    })
    .from(ledgerMovements)
    .where(and(where, gte(ledgerMovements.at, from), lt(ledgerMovements.at, to)))
    .groupBy(ledgerMovements.asset, ledgerMovements.chain);
  const sums = new Map<
    string,
    { asset: string; chain: string; opening: string; amounts: string; fees: string }
  >();
  const entry = (asset: string, chain: string) => {
    const key = `${asset}\u0000${chain}`;
    const found = sums.get(key) ?? { asset, chain, opening: '0', amounts: '0', fees: '0' };
    sums.set(key, found);
    return found;
  };
  for (const o of opening) entry(o.asset, o.chain).opening = o.sum;
  for (const p of period)
    Object.assign(entry(p.asset, p.chain), { amounts: p.amounts, fees: p.fees });
  const rows: MovementRow[] = await db
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
    })
    .from(ledgerMovements)
    .where(
      and(
        where,
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
    .limit(query.page.limit + 1);
  const page = rows.slice(0, query.page.limit);
  const last = page.at(-1);
  const hasNext = rows.length > query.page.limit;
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    totals: statementTotals([...sums.values()]),
    results: page.map(statementLine),
    nextCursor: hasNext && last ? statementCursor(last) : null,
    hasNext,
  };
}
