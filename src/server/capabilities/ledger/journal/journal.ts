import Papa from 'papaparse';
import { isNegative, isZero, neg } from '#contract/decimal.ts';
import {
  JOURNAL_CATEGORIES,
  JOURNAL_CATEGORY_LABELS,
  JOURNAL_COLUMNS,
  type JournalCategory,
  type JournalMapping,
} from '#contract/ledger-periods.ts';
import type { LedgerMovementKind } from '#contract/ledger.ts';
import type { TransactionCategory } from '#contract/enums.ts';

/**
 * The accounting journal of a period, pure: every movement booked in it is
 * one entry of two lines, the vault's account on one side and the
 * category's on the other, in the movement's asset. The conventions most
 * accounting tools import: one currency column (the asset), amounts
 * positive in either the debit or the credit column (the other empty),
 * each entry balanced in its currency, numbered in the `entry` column.
 *
 * - Money in (a deposit, a transfer in, a ramp or swap leg received): debit
 *   the vault, credit the transfers clearing account; out, the reverse. A
 *   transfer between two of our vaults is two entries through the clearing
 *   account, which nets to nothing.
 * - A fee: debit network fees (or ramp and swap fees, for a ramp's or a
 *   swap's), credit the vault.
 * - A staking reward: debit the vault, credit staking rewards.
 * - An opening balance (an ADJUSTMENT): debit the vault, credit opening balances.
 *
 * A swap or a ramp is in two currencies, so it is two entries (one per
 * asset) through the clearing account; no FX gain or loss is worked out:
 * the ledger values each movement at its own time's price, and the
 * difference stays in clearing for the accountant to value.
 */

export interface JournalMovement {
  id: number;
  at: Date;
  valueAt: Date | null;
  vaultId: string;
  vaultName: string;
  asset: string;
  chain: string;
  kind: LedgerMovementKind;
  amount: string;
  reference: string | null;
  memo: string | null;
  transactionId: string | null;
  category: TransactionCategory | null;
}

const TRADES: readonly (TransactionCategory | null)[] = ['SWAP', 'ON_RAMP', 'OFF_RAMP', 'RAMP'];

/** The category on a movement's other side. */
export function categoryOf(m: Pick<JournalMovement, 'kind' | 'category'>): JournalCategory {
  if (m.kind === 'FEE') return TRADES.includes(m.category) ? 'tradeFees' : 'networkFees';
  if (m.kind === 'REWARD') return 'stakingRewards';
  if (m.kind === 'ADJUSTMENT') return 'openingBalances';
  return 'transfers';
}

/** The vault's account for the asset: its own for that asset, else the vault's for every asset. */
function vaultAccount(mapping: JournalMapping, vaultId: string, asset: string): string | null {
  const own = mapping.vaults.filter((v) => v.vaultId === vaultId);
  return (own.find((v) => v.asset === asset) ?? own.find((v) => !v.asset))?.account ?? null;
}

/** A missing account, as the refusal names it: the field to set and what it is for. */
export interface Unmapped {
  field: string;
  message: string;
}

/** Every account the movements need and the mapping lacks, each once. */
export function unmappedAccounts(
  movements: readonly JournalMovement[],
  mapping: JournalMapping,
): Unmapped[] {
  const missing = new Map<string, Unmapped>();
  for (const m of movements) {
    if (!vaultAccount(mapping, m.vaultId, m.asset))
      missing.set(`vault ${m.vaultId}`, {
        field: `vaults.${m.vaultId}`,
        message: `no account for vault “${m.vaultName}” (${m.vaultId}), for ${m.asset} or every asset`,
      });
    const category = categoryOf(m);
    if (!mapping.categories[category])
      missing.set(category, {
        field: `categories.${category}`,
        message: `no account for ${JOURNAL_CATEGORY_LABELS[category].toLowerCase()}`,
      });
  }
  const order = (u: Unmapped) => JOURNAL_CATEGORIES.indexOf(u.field.slice(11) as JournalCategory);
  return [...missing.values()].sort((a, b) => order(a) - order(b));
}

const KIND_WORDS: Record<LedgerMovementKind, string> = {
  AMOUNT: 'Transfer',
  FEE: 'Fee',
  REWARD: 'Staking reward',
  ADJUSTMENT: 'Adjustment',
};

/** `YYYY-MM-DD` of an instant in `timeZone`. */
function dateIn(at: Date, timeZone: string): string {
  return at.toLocaleDateString('en-CA', { timeZone });
}

/** One line of the file, by column. */
export type JournalLine = Record<(typeof JOURNAL_COLUMNS)[number], string>;

/** The journal's lines: two per movement, debit first. Every account must be mapped (`unmappedAccounts`). */
export function journalLines(
  movements: readonly JournalMovement[],
  mapping: JournalMapping,
  timeZone: string,
): JournalLine[] {
  const lines: JournalLine[] = [];
  for (const m of movements) {
    if (isZero(m.amount)) continue;
    const vault = vaultAccount(mapping, m.vaultId, m.asset) ?? '';
    const other = mapping.categories[categoryOf(m)] ?? '';
    const amount = isNegative(m.amount) ? neg(m.amount) : m.amount;
    const [debit, credit] = isNegative(m.amount) ? [other, vault] : [vault, other];
    const late = m.valueAt
      ? `; late: happened ${m.valueAt.toISOString()}, in a period already closed`
      : '';
    const memo = `${KIND_WORDS[m.kind]} ${m.asset} on ${m.chain}, ${m.vaultName}${m.memo ? `: ${m.memo}` : ''}${late}`;
    const common = {
      date: dateIn(m.at, timeZone),
      currency: m.asset,
      memo,
      reference: m.reference ?? '',
      transaction_id: m.transactionId ?? '',
      entry: String(m.id),
    };
    lines.push(
      { ...common, account: debit, debit: amount, credit: '' },
      { ...common, account: credit, debit: '', credit: amount },
    );
  }
  return lines;
}

/** The CSV file: a header line, then the lines; CRLF, every field quoted as needed. */
export function journalCsv(lines: readonly JournalLine[]): string {
  return Papa.unparse(
    { fields: [...JOURNAL_COLUMNS], data: lines.map((l) => JOURNAL_COLUMNS.map((c) => l[c])) },
    { newline: '\r\n', escapeFormulae: true },
  );
}
