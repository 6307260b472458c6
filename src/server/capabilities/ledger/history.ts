import { add, cmp, mul, round } from '#contract/decimal.ts';
import type {
  LedgerHistoryFlows,
  LedgerHistoryResponse,
  LedgerHistorySeries,
} from '#contract/ledger.ts';

/**
 * Daily closing balances from movements, pure: a balance at a day's end is
 * the sum of every movement up to then, valued at the price of its last
 * movement up to then.
 */

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a UTC day. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

/** The first instant of the first of `days` UTC days ending with `now`'s. */
export function historyStart(now: Date, days: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (days - 1) * DAY_MS);
}

/** One asset on one chain before the period (`day` null) or on one of its days: the net and the last price. */
export interface DayNet {
  asset: string;
  chain: string;
  /** `YYYY-MM-DD`; null for everything before the period. */
  day: string | null;
  net: string;
  lastPrice: string;
}

/** One UTC day's flows in USD (decimal strings; out and fees positive). */
export interface DayFlow {
  day: string;
  inUsd: string;
  outUsd: string;
  feesUsd: string;
  rewardsUsd: string;
}

const FLOW_KEYS = ['inUsd', 'outUsd', 'feesUsd', 'rewardsUsd'] as const;

/** The days' flows laid out day by day from `start`, `null` for a day with none. */
export function buildFlows(
  start: Date,
  days: number,
  rows: readonly DayFlow[],
): LedgerHistoryFlows {
  const flows: LedgerHistoryFlows = { inUsd: [], outUsd: [], feesUsd: [], rewardsUsd: [] };
  const byDay = new Map(rows.map((r) => [r.day, r]));
  for (let i = 0; i < days; i += 1) {
    const row = byDay.get(dayOf(new Date(start.getTime() + i * DAY_MS)));
    for (const key of FLOW_KEYS) {
      const value = row?.[key];
      flows[key].push(value === undefined || cmp(value, '0') === 0 ? null : value);
    }
  }
  return flows;
}

export function buildHistory(
  start: Date,
  days: number,
  rows: readonly DayNet[],
  flowRows: readonly DayFlow[] = [],
): LedgerHistoryResponse {
  const from = dayOf(start);
  const indexOf = new Map<string, number>();
  for (let i = 0; i < days; i += 1) indexOf.set(dayOf(new Date(start.getTime() + i * DAY_MS)), i);
  const byAsset = new Map<string, { asset: string; chain: string; rows: DayNet[] }>();
  for (const r of rows) {
    const key = `${r.asset}\u0000${r.chain}`;
    const entry = byAsset.get(key) ?? { asset: r.asset, chain: r.chain, rows: [] };
    entry.rows.push(r);
    byAsset.set(key, entry);
  }
  const series: LedgerHistorySeries[] = [];
  const keys = [...byAsset.keys()].sort();
  for (const key of keys) {
    const entry = byAsset.get(key);
    if (!entry) continue;
    const nets = new Array<string | undefined>(days);
    const prices = new Array<string | undefined>(days);
    let units = '0';
    let price = '0';
    for (const r of entry.rows) {
      if (r.day === null) {
        units = add(units, r.net);
        price = r.lastPrice;
        continue;
      }
      const i = indexOf.get(r.day);
      if (i === undefined) continue;
      nets[i] = add(nets[i] ?? '0', r.net);
      prices[i] = r.lastPrice;
    }
    const unitsOut: (string | null)[] = [];
    const usdOut: (string | null)[] = [];
    let lastUnits: string | undefined;
    let lastUsd: string | undefined;
    for (let i = 0; i < days; i += 1) {
      units = add(units, nets[i] ?? '0');
      price = prices[i] ?? price;
      const usd = round(mul(units, price), 2);
      unitsOut.push(lastUnits !== undefined && cmp(lastUnits, units) === 0 ? null : units);
      usdOut.push(lastUsd !== undefined && cmp(lastUsd, usd) === 0 ? null : usd);
      lastUnits = units;
      lastUsd = usd;
    }
    series.push({ asset: entry.asset, chain: entry.chain, units: unitsOut, usd: usdOut });
  }
  return { from, days, series, flows: buildFlows(start, days, flowRows) };
}

/** The history's closing of day `i` of a series: the last value given up to it. */
export function closingOn(values: readonly (string | null)[], i: number): string {
  for (let j = Math.min(i, values.length - 1); j >= 0; j -= 1) {
    const v = values[j];
    if (v !== null && v !== undefined) return v;
  }
  return '0';
}
