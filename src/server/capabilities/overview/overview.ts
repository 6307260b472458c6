import { cmp, sum } from '#contract/decimal.ts';
import type { OverviewResponse, VaultHoldingsResponse } from '#contract/overview.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';
import type { TransactionListQuery } from '../transactions/port.ts';
import type { Database } from '../../db/client.ts';
import { approvalInboxWaiting, type HeldSource } from '../approvals/inbox.ts';
import { addTo, percentOf, valueVaults } from './holdings.ts';
import {
  IN_FLIGHT,
  type FlowTotals,
  type InFlightFacts,
  type OverviewFacts,
  type OverviewFactsQuery,
} from './port.ts';

/**
 * The treasury overview of the caller's scope:
 *
 * - holdings: every vault's balances valued as detailed_balances values
 *   them, summed by asset, chain and vault;
 * - in flight: transactions neither completed, failed nor declined (drafts
 *   are not on their way), counted per status;
 * - flows: COMPLETED transactions by when they completed (their status
 *   history's COMPLETED entry, else `updatedAt`): out of the scope's vaults
 *   to anything that is not one of them (a contact, an address, a bank
 *   account), or into them from outside. A move between two of the scope's
 *   own vaults is neither. Valued at the transaction's `amountInUSD`;
 * - slow: transactions in flight the custody service marks slower than
 *   usual for their fee tier, the latest to pass its usual time first (SLOW_LISTED of
 *   them): a new hold-up is seen above the ones already known;
 * - waiting: for a member who decides, the approvals inbox's counts and the
 *   oldest item they did not propose (capabilities/approvals/inbox.ts, the
 *   very list the inbox page pages through), read as its counts are: no
 *   page of items is named or carded for them.
 *
 * Holdings, flows and the transactions in flight are the backend's
 * `overviewFacts` where it keeps them (the sandbox: a fixed number of
 * statements over its balances and its transactions index, whatever their
 * size, port.ts); otherwise (upstream) they are composed here from the
 * custody API's reads through the scoped backend: the vault list, each
 * vault's detailed balances, the completed transactions page by page and
 * those in flight status by status, at most MAX_TRANSACTION_PAGES each;
 * `transactionsComplete` says whether every one was read. Either way the
 * flows are summed by quarter hour and placed on the member's days here.
 */

const MAX_TRANSACTION_PAGES = 50;
/** How many slow transactions the overview names; the count covers them all. */
const SLOW_LISTED = 5;
const PAGE = 100;
const DAY_MS = 24 * 60 * 60 * 1000;
const CHART_DAYS = 30;
/**
 * Completed transactions are listed by creation: those created this long
 * before the chart's first day are read too, so a transfer that took days
 * to complete still counts on the day it completed.
 */
const COMPLETION_LAG_MS = 7 * DAY_MS;

interface Read<T> {
  rows: T[];
  complete: boolean;
}

async function readAll(
  backend: CustodyBackend,
  ctx: CustodyContext,
  query: Omit<TransactionListQuery, 'limit' | 'cursor'>,
): Promise<Read<Transaction>> {
  const rows: Transaction[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_TRANSACTION_PAGES; pages += 1) {
    const page = await backend.listTransactions(ctx, { ...query, limit: PAGE, cursor });
    rows.push(...page.results);
    if (!page.hasNext || !page.nextCursor || page.nextCursor === cursor)
      return { rows, complete: true };
    cursor = page.nextCursor;
  }
  return { rows, complete: false };
}

/** When a completed transaction completed. */
function completedAt(tx: Transaction): number | undefined {
  const entry = tx.statusHistory?.findLast((s) => s.status === 'COMPLETED');
  const at = Date.parse(entry?.at ?? tx.updatedAt ?? tx.createdAt ?? '');
  return Number.isFinite(at) ? at : undefined;
}

/** The vault a transaction spends from, and the vault it pays into, as its parties name them. */
function vaultsOf(tx: Transaction): { from?: string | undefined; to?: string | undefined } {
  // A party that is a vault names it; otherwise the transaction's own vault is
  // the source of an outgoing one and the destination of an incoming one.
  const vaultAt = (party: Transaction['source'], ownWhen: Transaction['transactionType']) =>
    party?.type === 'VAULT' ? party.id : tx.transactionType === ownWhen ? tx.vaultId : undefined;
  return { from: vaultAt(tx.source, 'OUTGOING'), to: vaultAt(tx.destination, 'INCOMING') };
}

/** One formatter per zone: making one costs far more than using it, and the flows place many quarters. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD` of an instant in `timeZone`. */
function dayIn(instant: number, timeZone: string): string {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(timeZone, format);
  }
  const parts = format.formatToParts(new Date(instant));
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The `count` calendar days up to and including `today`, oldest first. */
export function daysUpTo(today: string, count: number): string[] {
  // eslint-disable-next-line no-restricted-syntax -- a calendar date's year, month and day
  const [y, m, d] = today.split('-').map(Number);
  const base = Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1);
  return Array.from({ length: count }, (_, i) =>
    new Date(base - (count - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

interface FlowSum {
  usd: string[];
  count: number;
  unpriced: number;
}
const emptyFlow = (): FlowSum => ({ usd: [], count: 0, unpriced: 0 });
function addFlow(flow: FlowSum, totals: FlowTotals): void {
  flow.count += totals.count;
  flow.usd.push(totals.usd);
  flow.unpriced += totals.unpriced;
}
const flowAnswer = (flow: FlowSum): FlowTotals => ({
  usd: sum(flow.usd),
  count: flow.count,
  unpriced: flow.unpriced,
});
/** One completed transaction's part of a flow. */
const flowOf = (tx: Transaction): FlowTotals => ({
  usd: tx.amountInUSD ?? '0',
  count: 1,
  unpriced: tx.amountInUSD ? 0 : 1,
});

const QUARTER_MS = 15 * 60 * 1000;

/**
 * The overview's facts from the custody API's own reads (port.ts says what
 * they are): the vaults valued one by one (holdings.ts), and the completed
 * transactions read page by page and summed by quarter hour.
 */
async function composedFacts(
  backend: CustodyBackend,
  ctx: CustodyContext,
  query: OverviewFactsQuery,
): Promise<{ facts: OverviewFacts; complete: boolean }> {
  const [{ vaults }, completed, inFlight] = await Promise.all([
    valueVaults(backend, ctx, query.subOrgId),
    readAll(backend, ctx, {
      status: 'COMPLETED',
      subOrgId: query.subOrgId,
      createdAtGte: query.createdFrom.toISOString(),
    }),
    composedInFlight(backend, ctx, query.subOrgId),
  ]);
  const ours = new Set(vaults.map((v) => v.id));
  const byQuarter = new Map<number, FlowSum>();
  const outflow = emptyFlow();
  const inflow = emptyFlow();
  for (const tx of completed.rows) {
    const at = completedAt(tx);
    if (at === undefined || at > query.now.getTime()) continue;
    const { from, to } = vaultsOf(tx);
    const out = from !== undefined && ours.has(from) && !(to !== undefined && ours.has(to));
    const into = to !== undefined && ours.has(to) && !(from !== undefined && ours.has(from));
    const recent = at > query.lastDayFrom.getTime();
    if (out) {
      const quarter = Math.floor(at / QUARTER_MS);
      const flow = byQuarter.get(quarter) ?? emptyFlow();
      addFlow(flow, flowOf(tx));
      byQuarter.set(quarter, flow);
      if (recent) addFlow(outflow, flowOf(tx));
    }
    if (into && recent) addFlow(inflow, flowOf(tx));
  }
  return {
    facts: {
      vaults,
      outflowByQuarter: [...byQuarter].map(([quarter, flow]) => ({
        at: new Date(quarter * QUARTER_MS),
        ...flowAnswer(flow),
      })),
      lastDay: { outflow: flowAnswer(outflow), inflow: flowAnswer(inflow) },
      inFlight,
    },
    complete: completed.complete,
  };
}

/** The transactions on their way, read from the transactions list status by status. */
async function composedInFlight(
  backend: CustodyBackend,
  ctx: CustodyContext,
  subOrgId: string | undefined,
): Promise<InFlightFacts> {
  const reads = await Promise.all(
    IN_FLIGHT.map((status) => readAll(backend, ctx, { status, subOrgId })),
  );
  return {
    byStatus: IN_FLIGHT.map((status, i) => ({ status, count: reads[i]?.rows.length ?? 0 })),
    mayBeSlow: reads.flatMap((r) => r.rows),
    complete: reads.every((r) => r.complete),
  };
}

/** The transactions marked slower than usual, the latest to become so first. */
function slowOnes(inFlight: readonly Transaction[]): OverviewResponse['slow'] {
  const slow = inFlight
    .flatMap((tx) =>
      tx.slowerThanUsual && tx.id && tx.status && tx.slowAfter
        ? [{ tx, id: tx.id, status: tx.status, slowAfter: tx.slowAfter }]
        : [],
    )
    .sort((a, b) => Date.parse(b.slowAfter) - Date.parse(a.slowAfter));
  return {
    count: slow.length,
    transactions: slow.slice(0, SLOW_LISTED).map(({ tx, id, status, slowAfter }) => ({
      id,
      status,
      category: tx.category ?? null,
      amount: tx.amount ?? null,
      asset: tx.asset ?? null,
      blockChain: tx.blockChain ?? null,
      feeTier: tx.gasParams?.feeTier ?? null,
      slowAfter,
    })),
  };
}

export interface OverviewOptions {
  subOrgId: string | undefined;
  timeZone: string;
  now: Date;
  /** The member may decide (the `approve` permission): the inbox is theirs to read. */
  decides: boolean;
  priceSource: VaultHoldingsResponse['priceSource'];
  /** The kinds the console holds itself, waiting with the rest. */
  held?: HeldSource;
}

export async function readOverview(
  backend: CustodyBackend,
  ctx: CustodyContext,
  db: Database,
  options: OverviewOptions,
): Promise<OverviewResponse> {
  const { subOrgId, timeZone, now } = options;
  const nowMs = now.getTime();
  const days = daysUpTo(dayIn(nowMs, timeZone), CHART_DAYS);
  // The chart's first day starts at most 14 hours (the widest offset) before its UTC midnight.
  const firstDayStart = Date.parse(`${days[0]}T00:00:00Z`) - 14 * 60 * 60 * 1000;
  const dayFrom = nowMs - DAY_MS;
  const factsQuery: OverviewFactsQuery = {
    subOrgId,
    createdFrom: new Date(firstDayStart - COMPLETION_LAG_MS),
    now,
    lastDayFrom: new Date(dayFrom),
  };
  const [{ facts, complete }, waiting] = await Promise.all([
    backend.overviewFacts
      ? backend.overviewFacts(ctx, factsQuery).then((read) => ({ facts: read, complete: true }))
      : composedFacts(backend, ctx, factsQuery),
    options.decides
      ? approvalInboxWaiting(backend, ctx, db, subOrgId, options.held)
      : Promise.resolve(null),
  ]);
  const { vaults } = facts;
  const totalUsd = sum(vaults.map((v) => v.usd));

  const assetUnits = new Map<string, string>();
  const assetUsd = new Map<string, string>();
  const chainUsd = new Map<string, string>();
  const unpriced: OverviewResponse['unpriced'] = [];
  for (const vault of vaults) {
    for (const h of vault.holdings) {
      if (h.usd === null) {
        if (cmp(h.balance, '0') !== 0)
          unpriced.push({ symbol: h.symbol, chain: h.chain, balance: h.balance });
        continue;
      }
      addTo(assetUnits, h.symbol, h.balance);
      addTo(assetUsd, h.symbol, h.usd);
      addTo(chainUsd, h.chain ?? 'UNKNOWN', h.usd);
    }
  }
  const byUsd = <T extends { usd: string }>(a: T, b: T) => cmp(b.usd, a.usd);
  const byAsset = [...assetUsd]
    .map(([symbol, usd]) => ({
      symbol,
      balance: assetUnits.get(symbol) ?? '0',
      usd,
      share: percentOf(usd, totalUsd),
    }))
    .sort((a, b) => byUsd(a, b) || a.symbol.localeCompare(b.symbol));
  const byChain = [...chainUsd]
    .map(([chain, usd]) => ({ chain, usd, share: percentOf(usd, totalUsd) }))
    .sort((a, b) => byUsd(a, b) || a.chain.localeCompare(b.chain));
  const byVault = vaults
    .map((v) => ({
      id: v.id,
      name: v.name,
      subOrgId: v.subOrgId,
      usd: v.usd,
      share: percentOf(v.usd, totalUsd),
    }))
    .sort((a, b) => byUsd(a, b) || a.name.localeCompare(b.name));

  // A quarter hour falls on one day in any zone (a zone's offset is whole quarters).
  const byDay = new Map(days.map((day) => [day, emptyFlow()]));
  for (const quarter of facts.outflowByQuarter) {
    const day = byDay.get(dayIn(quarter.at.getTime(), timeZone));
    if (day) addFlow(day, quarter);
  }
  const dayTotals = days.map((day) => ({ day, ...flowAnswer(byDay.get(day) ?? emptyFlow()) }));
  const largest = dayTotals.reduce((max, d) => (cmp(d.usd, max) > 0 ? d.usd : max), '0');

  const { byStatus } = facts.inFlight;
  return {
    pricedAt: now.toISOString(),
    slow: slowOnes(facts.inFlight.mayBeSlow),
    priceSource: options.priceSource,
    totalUsd,
    timeZone,
    byAsset,
    byChain,
    byVault,
    unpriced,
    waiting,
    inFlight: { count: byStatus.reduce((n, s) => n + s.count, 0), byStatus },
    lastDay: {
      from: new Date(dayFrom).toISOString(),
      outflow: facts.lastDay.outflow,
      inflow: facts.lastDay.inflow,
    },
    outflowByDay: dayTotals.map(({ day, usd, count }) => ({
      day,
      usd,
      count,
      share: percentOf(usd, largest),
    })),
    transactionsComplete: complete && facts.inFlight.complete,
  };
}
