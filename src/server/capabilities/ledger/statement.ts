import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { add, cmp, isNegative, mul, neg, round, sub } from '#contract/decimal.ts';
import type {
  LedgerMovementKind,
  LedgerStatementLine,
  LedgerStatementTotals,
} from '#contract/ledger.ts';
import type { Party } from '#contract/transaction.ts';
import { maskAccountNumber, maskNumbersIn } from '#contract/bank-account-record.ts';

/** A statement's pure parts: its lines, its totals, its cursor, and the check that it reconciles. */

export interface MovementRow {
  id: number;
  at: Date;
  vaultId: string;
  asset: string;
  chain: string;
  kind: LedgerMovementKind;
  amount: string;
  balanceAfter: string;
  usdPrice: string;
  counterparty: Party | null;
  reference: string | null;
  memo: string | null;
  transactionId: string | null;
  valueAt: Date | null;
}

/**
 * Who was on the other side, in words: its name, else its address, else its
 * kind and id. A bank (a ramp's) is its name and its account number masked
 * ("•••• 6789"): a statement is a list, and lists never show a full number.
 */
function counterpartyText(p: Party | null): string | null {
  if (!p) return null;
  const bank = p.bankDetails ?? p.bank;
  if (bank) {
    const number = bank.accountNumberMasked ?? maskAccountNumber(bank.accountNumber ?? bank.iban);
    const name = p.name ?? bank.accountName ?? bank.bankName ?? p.provider ?? 'Bank account';
    return number ? `${name} ${number}` : name;
  }
  return p.name ?? p.address ?? ([p.type, p.id].filter(Boolean).join(' ') || null);
}

export function statementLine(m: MovementRow): LedgerStatementLine {
  const isFee = m.kind === 'FEE';
  const amount = isFee ? '0' : m.amount;
  const fee = isFee ? neg(m.amount) : '0';
  return {
    id: String(m.id),
    at: m.at.toISOString(),
    vaultId: m.vaultId,
    asset: m.asset,
    chain: m.chain,
    kind: m.kind,
    amount,
    fee,
    usdPrice: m.usdPrice,
    usdValue: round(mul(sub(amount, fee), m.usdPrice), 2),
    balanceAfter: m.balanceAfter,
    counterparty: counterpartyText(m.counterparty),
    reference: m.reference,
    // Free text a member typed may hold an account number: masked as lists mask them.
    memo: m.memo === null ? null : maskNumbersIn(m.memo),
    transactionId: m.transactionId,
    valueAt: m.valueAt?.toISOString() ?? null,
  };
}

/** Per asset: the balance before the period, and the period's non-fee amounts and fees (positive). */
export interface AssetSums {
  asset: string;
  chain: string;
  opening: string;
  amounts: string;
  fees: string;
}

/** Totals that reconcile by construction: closing = opening + amounts − fees, in the decimal module. */
export function statementTotals(sums: readonly AssetSums[]): LedgerStatementTotals[] {
  return [...sums]
    .sort((a, b) => (a.asset === b.asset ? cmp0(a.chain, b.chain) : cmp0(a.asset, b.asset)))
    .map((s) => ({ ...s, closing: sub(add(s.opening, s.amounts), s.fees) }));
}

const cmp0 = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Whether a statement's totals and lines agree to the last unit: the lines'
 * amounts and fees sum to the totals', and opening + amounts − fees = closing.
 * (The lines of every page of the period, for the whole check.)
 */
export function reconciles(
  totals: readonly LedgerStatementTotals[],
  lines: readonly LedgerStatementLine[],
): boolean {
  return totals.every((t) => {
    const own = lines.filter((l) => l.asset === t.asset && l.chain === t.chain);
    const amounts = own.reduce((s, l) => add(s, l.amount), '0');
    const fees = own.reduce((s, l) => add(s, l.fee), '0');
    return (
      cmp(amounts, t.amounts) === 0 &&
      cmp(fees, t.fees) === 0 &&
      !isNegative(t.fees) &&
      cmp(sub(add(t.opening, t.amounts), t.fees), t.closing) === 0
    );
  });
}

/** A statement's cursor: the last line's time and id. */
export function statementCursor(m: Pick<MovementRow, 'at' | 'id'>): string {
  return `${m.at.getTime()}.${m.id}`;
}

export function readStatementCursor(cursor: string): { at: Date; id: number } {
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(cursor);
  if (!match?.[1] || !match[2]) {
    const message = 'cursor is not one this statement gave: ask for the first page again';
    throw new ApiError(400, ERROR_CODES.invalidCursor, message, [{ field: 'cursor', message }]);
  }
  // eslint-disable-next-line no-restricted-syntax -- a time in ms and a row id, checked digits only
  return { at: new Date(Number(match[1])), id: Number(match[2]) };
}

const DAY_MS = 86_400_000;
const floorDay = (at: Date) => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);
const ceilDay = (at: Date) => new Date(Math.ceil(at.getTime() / DAY_MS) * DAY_MS);

/** A half-open span of time, [from, to). */
export interface Span {
  from: Date;
  to: Date;
}

/**
 * Where a statement's sums come from: the daily summary for the whole UTC
 * days inside the period, the movements themselves for the parts of a day
 * at either end (a month in the member's zone starts mid-way through a UTC
 * day). The opening is the summary's closing of the day before `openingDay`
 * plus the movements of `openingPart`.
 */
export interface StatementPlan {
  /** The first UTC day the summary's closing does not cover: `YYYY-MM-DD`. */
  openingDay: string;
  /** Movements of the period's first UTC day before the period. */
  openingPart: Span | null;
  /** Whole UTC days, `YYYY-MM-DD`, first included, last excluded. */
  days: { from: string; to: string } | null;
  /** Parts of a day at either end, read from the movements. */
  parts: Span[];
}

const dayText = (at: Date) => at.toISOString().slice(0, 10);

export function statementPlan(from: Date, to: Date): StatementPlan {
  const openingStart = floorDay(from);
  const openingPart =
    openingStart.getTime() < from.getTime() ? { from: openingStart, to: from } : null;
  const first = ceilDay(from);
  const last = floorDay(to);
  if (first.getTime() >= last.getTime())
    return { openingDay: dayText(openingStart), openingPart, days: null, parts: [{ from, to }] };
  const parts: Span[] = [];
  if (from.getTime() < first.getTime()) parts.push({ from, to: first });
  if (last.getTime() < to.getTime()) parts.push({ from: last, to });
  return {
    openingDay: dayText(openingStart),
    openingPart,
    days: { from: dayText(first), to: dayText(last) },
    parts,
  };
}
