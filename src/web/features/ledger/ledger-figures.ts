import { add, cmp, neg, sub } from '#contract/decimal.ts';
import type { LedgerHistoryResponse, LedgerStatementTotals } from '#contract/ledger.ts';

/**
 * The ledger pages' figures, pure, in the decimal module: the history's
 * compact day-by-day values filled in, stacked by asset, and grouped by
 * month; and a statement's reconciliation check.
 */

const DAY_MS = 86_400_000;

/** The history's day labels: `YYYY-MM-DD`, UTC days from `from`. */
export function historyDays(history: Pick<LedgerHistoryResponse, 'from' | 'days'>): string[] {
  const start = Date.parse(`${history.from}T00:00:00.000Z`);
  return Array.from({ length: history.days }, (_, i) =>
    new Date(start + i * DAY_MS).toISOString().slice(0, 10),
  );
}

/** A compact series (`null`: as the day before) written out day by day; '0' before the first value. */
export function filled(values: readonly (string | null)[]): string[] {
  let last = '0';
  return values.map((v) => (last = v ?? last));
}

/** Each asset's USD value day by day, its chains added together, assets in name order. */
export function holdingsByAsset(history: LedgerHistoryResponse): Array<{
  asset: string;
  usd: string[];
}> {
  const byAsset = new Map<string, string[]>();
  for (const s of history.series) {
    const usd = filled(s.usd);
    const before = byAsset.get(s.asset);
    byAsset.set(s.asset, before ? before.map((v, i) => add(v, usd[i] ?? '0')) : usd);
  }
  return [...byAsset.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([asset, usd]) => ({ asset, usd }));
}

/** The organization's (or vault's) total in USD each day. */
export function totalsByDay(holdings: ReturnType<typeof holdingsByAsset>, days: number): string[] {
  return Array.from({ length: days }, (_, i) =>
    holdings.reduce((total, h) => add(total, h.usd[i] ?? '0'), '0'),
  );
}

/** A flow series with its gaps as zero. */
export const zeroFilled = (values: readonly (string | null)[]): string[] =>
  values.map((v) => v ?? '0');

/** Outflows drawn below the axis. */
export const below = (values: readonly string[]): string[] => values.map((v) => neg(v));

/** Fees summed per calendar month (UTC, as the history's days are), oldest first. */
export function feesByMonth(
  days: readonly string[],
  feesUsd: readonly (string | null)[],
): Array<{ month: string; usd: string }> {
  const months = new Map<string, string>();
  days.forEach((day, i) => {
    const month = day.slice(0, 7);
    months.set(month, add(months.get(month) ?? '0', feesUsd[i] ?? '0'));
  });
  return [...months.entries()].map(([month, usd]) => ({ month, usd }));
}

/** Whether an asset's totals add up: opening + movements − fees = closing, to the last unit. */
export function reconciled(t: LedgerStatementTotals): boolean {
  return cmp(sub(add(t.opening, t.amounts), t.fees), t.closing) === 0;
}
