import Papa from 'papaparse';
import { add, cmp, sub } from '#contract/decimal.ts';
import type { LedgerStatementLine, LedgerStatementTotals } from '#contract/ledger.ts';
import { reconciles } from './statement.ts';
import { localTime } from '../../http/wall-clock.ts';

/**
 * A whole statement as a file: every line of the period (not one page),
 * times as the member's wall clock in their zone (named in the file), the
 * opening and closing balances of each asset, and whether it reconciles.
 * `csv` for spreadsheets (papaparse's writer: quoting, formula cells made
 * text), `html` a page to print or save as PDF (no script; its print
 * stylesheet is a file of its own, as the console's CSP allows no inline
 * style).
 */
export interface WholeStatement {
  /** Whose statement, in words: a vault's or sub-organization's name and id. */
  title: string;
  from: string;
  to: string;
  timeZone: string;
  totals: readonly LedgerStatementTotals[];
  lines: readonly LedgerStatementLine[];
}

const CSV_COLUMNS = [
  'time',
  'timeZone',
  'asset',
  'chain',
  'kind',
  'counterparty',
  'amount',
  'fee',
  'usdPrice',
  'usdValue',
  'balance',
  'reference',
  'memo',
  'transactionId',
  'vaultId',
  // Last, so a spreadsheet's import by position made before it was added still holds.
  'valueTime',
] as const;

/**
 * A cell a spreadsheet would run as a formula, quoted as text so opening the
 * file never runs anything; a negative amount ("-0.75") stays a number.
 */
const FORMULA = /^(?:[=+@\t\r]|-(?!\d+(?:\.\d+)?$))/;

const linesOf = (s: WholeStatement, t: LedgerStatementTotals) =>
  s.lines.filter((l) => l.asset === t.asset && l.chain === t.chain);

/**
 * When a late arrival happened, as the wall clock of `timeZone`: it is booked
 * at the start of the next open period (its line's time) because its own
 * period was closed; empty for a movement booked when it happened.
 */
const valueTime = (l: LedgerStatementLine, timeZone: string) =>
  l.valueAt ? localTime(l.valueAt, timeZone) : '';

/**
 * One CSV line per movement, and per asset an OPENING line at the period's
 * start and a CLOSING line at its end carrying the balance: per asset,
 * OPENING's balance + Σ amount − Σ fee = CLOSING's balance. A late arrival's
 * `valueTime` says when it happened.
 */
export function statementCsv(s: WholeStatement): string {
  const data: string[][] = [];
  for (const t of s.totals) {
    const edge = (kind: 'OPENING' | 'CLOSING', at: string, balance: string) =>
      CSV_COLUMNS.map((c) =>
        c === 'time'
          ? localTime(at, s.timeZone)
          : c === 'timeZone'
            ? s.timeZone
            : c === 'asset'
              ? t.asset
              : c === 'chain'
                ? t.chain
                : c === 'kind'
                  ? kind
                  : c === 'balance'
                    ? balance
                    : '',
      );
    data.push(edge('OPENING', s.from, t.opening));
    for (const l of linesOf(s, t))
      data.push(
        CSV_COLUMNS.map((c) =>
          c === 'time'
            ? localTime(l.at, s.timeZone)
            : c === 'timeZone'
              ? s.timeZone
              : c === 'balance'
                ? l.balanceAfter
                : c === 'valueTime'
                  ? valueTime(l, s.timeZone)
                  : String(l[c] ?? ''),
        ),
      );
    data.push(edge('CLOSING', s.to, t.closing));
  }
  return Papa.unparse(
    { fields: [...CSV_COLUMNS], data },
    { newline: '\r\n', escapeFormulae: FORMULA },
  );
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const esc = (text: string | null | undefined) =>
  (text ?? '').replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);

/** Under a late arrival's time: an adjustment to this period, for one already closed. */
function lateNote(l: LedgerStatementLine, timeZone: string): string {
  const happened = valueTime(l, timeZone);
  return happened
    ? `<br><small>Late: happened ${esc(happened)}, in a period already closed</small>`
    : '';
}

/** Per asset whether its lines add up to its totals, and the totals to its closing. */
function assetReconciles(s: WholeStatement, t: LedgerStatementTotals): boolean {
  return reconciles([t], linesOf(s, t));
}

/** A printable statement: per asset a table from the opening to the closing balance, and its check. */
export function statementHtml(s: WholeStatement): string {
  const from = localTime(s.from, s.timeZone);
  const to = localTime(s.to, s.timeZone);
  const sections = s.totals.map((t) => {
    const rows = linesOf(s, t)
      .map(
        (l) =>
          `<tr><td>${esc(localTime(l.at, s.timeZone))}${lateNote(l, s.timeZone)}</td><td>${esc(l.kind)}</td>` +
          `<td>${esc(l.counterparty)}</td><td class="n">${esc(l.amount)}</td>` +
          `<td class="n">${esc(l.fee)}</td><td class="n">${esc(l.usdValue)}</td>` +
          `<td class="n">${esc(l.balanceAfter)}</td><td>${esc(l.reference)}</td>` +
          `<td>${esc(l.memo)}</td><td class="id">${esc(l.transactionId)}</td></tr>`,
      )
      .join('\n');
    const ok = assetReconciles(s, t);
    const check = `${esc(t.opening)} + ${esc(t.amounts)} − ${esc(t.fees)} = ${esc(sub(add(t.opening, t.amounts), t.fees))}`;
    const verdict =
      ok && cmp(sub(add(t.opening, t.amounts), t.fees), t.closing) === 0
        ? `<strong class="ok">✓ Reconciled</strong>: opening + movements − fees = closing: ${check}`
        : `<strong class="bad">✗ Does not reconcile</strong>: ${check}, closing ${esc(t.closing)}`;
    return `<section>
<h2>${esc(t.asset)} on ${esc(t.chain)}</h2>
<table>
<caption>${esc(t.asset)} on ${esc(t.chain)}: every movement from ${esc(from)} to ${esc(to)}</caption>
<thead><tr><th scope="col">Time (${esc(s.timeZone)})</th><th scope="col">Kind</th><th scope="col">Counterparty</th><th scope="col" class="n">Amount</th><th scope="col" class="n">Fee</th><th scope="col" class="n">USD at the time</th><th scope="col" class="n">Balance</th><th scope="col">Reference</th><th scope="col">Memo</th><th scope="col">Transaction</th></tr></thead>
<tbody>
<tr class="edge"><th scope="row" colspan="6">Opening balance</th><td class="n">${esc(t.opening)}</td><td colspan="3"></td></tr>
${rows}
<tr class="edge"><th scope="row" colspan="6">Closing balance</th><td class="n">${esc(t.closing)}</td><td colspan="3"></td></tr>
</tbody>
</table>
<p class="check">${verdict}</p>
</section>`;
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Statement · ${esc(s.title)} · ${esc(from)} to ${esc(to)}</title>
<link rel="stylesheet" href="/ledger-statement.css">
</head>
<body>
<main>
<h1>Statement: ${esc(s.title)}</h1>
<p>From ${esc(from)} to ${esc(to)}, times in ${esc(s.timeZone)}.</p>
${sections.length > 0 ? sections.join('\n') : '<p>No balance and no movement in this period.</p>'}
</main>
</body>
</html>
`;
}
