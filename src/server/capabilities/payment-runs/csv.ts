import Papa from 'papaparse';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { PAYMENT_RUN_COLUMNS, type PaymentRunReconciliationRow } from '#contract/payment-runs.ts';
import { localTime } from '../../http/wall-clock.ts';

/**
 * A payment run's file: CSV read by a real parser (quoted fields with commas
 * and line breaks, a byte-order mark, CRLF or LF), its first line the
 * headers. Headers are matched to the run's columns by name, or through
 * `mapping` (the file's header → the column) when a file names them its own
 * way. Empty cells are left out, so a row names only the destination it has.
 */

const COLUMNS = new Set<string>(PAYMENT_RUN_COLUMNS);

export function parseRunCsv(
  text: string,
  mapping: Readonly<Record<string, string>> = {},
): Record<string, string>[] {
  for (const [from, to] of Object.entries(mapping))
    if (!COLUMNS.has(to))
      throw new ApiError(400, ERROR_CODES.validation, `mapping names no column "${to}"`, [
        { field: `mapping.${from}`, message: `must be one of ${PAYMENT_RUN_COLUMNS.join(', ')}` },
      ]);
  const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (header) => {
      const name = header.trim();
      return mapping[name] ?? name;
    },
  });
  const problem = parsed.errors[0];
  if (problem)
    throw new ApiError(
      400,
      ERROR_CODES.validation,
      `csv: ${problem.message}${problem.row !== undefined ? ` (row ${problem.row + 1})` : ''}`,
      [{ field: 'csv', message: problem.message }],
    );
  const unknown = (parsed.meta.fields ?? []).filter((f) => !COLUMNS.has(f));
  if (unknown.length)
    throw new ApiError(
      400,
      ERROR_CODES.validation,
      `csv: unknown column ${unknown.map((u) => `"${u}"`).join(', ')}; map it to one of ${PAYMENT_RUN_COLUMNS.join(', ')}`,
      [{ field: 'csv', message: `unknown column ${unknown.join(', ')}` }],
    );
  return parsed.data.map((row) =>
    Object.fromEntries(
      Object.entries(row)
        .map(([k, v]) => [k, typeof v === 'string' ? v.trim() : v] as const)
        .filter(([, v]) => v !== '' && v !== undefined),
    ),
  );
}

/** The template to download: the headers and one example row of each destination kind. */
export function runTemplateCsv(): string {
  const example = (values: Record<string, string>) =>
    PAYMENT_RUN_COLUMNS.map((c) => values[c] ?? '');
  return Papa.unparse(
    {
      fields: [...PAYMENT_RUN_COLUMNS],
      data: [
        example({
          kind: 'CRYPTO',
          sourceVaultId: 'vault id',
          contactId: 'contact id',
          asset: 'USDC',
          blockChain: 'ETHEREUM',
          amount: '1250.00',
          reference: 'INV-1001',
          memo: 'March invoice',
        }),
        example({
          kind: 'CRYPTO',
          sourceVaultId: 'vault id',
          address: '0x…',
          asset: 'USDC',
          blockChain: 'ETHEREUM',
          amount: '99.5',
          reference: 'INV-1002',
        }),
        example({
          kind: 'FIAT',
          sourceVaultId: 'vault id',
          bankAccountId: 'bank account id',
          asset: 'USDC',
          blockChain: 'ETHEREUM',
          amount: '5000',
          reference: 'PAYROLL-03',
        }),
      ],
    },
    { newline: '\r\n' },
  );
}

/** The file's columns: each row's, with the zone its completed time is shown in after it. */
const RECONCILIATION_COLUMNS = [
  'index',
  'reference',
  'asset',
  'blockChain',
  'amount',
  'status',
  'externalId',
  'transactionId',
  'txHash',
  'feeAmount',
  'feeAsset',
  'feeUsd',
  'completedAt',
  'timeZone',
  'failure',
] as const satisfies readonly (keyof PaymentRunReconciliationRow | 'timeZone')[];

/**
 * The reconciliation file: one line per row, its completed time in the
 * member's `timeZone` (named in its own column; the JSON carries the instant).
 * A cell a spreadsheet would read as a formula (a reference or a failure
 * starting with `=`, `+`, `-`, `@`) is quoted as text, so opening the file
 * never runs anything.
 */
export function reconciliationCsv(
  rows: readonly PaymentRunReconciliationRow[],
  timeZone: string,
): string {
  return Papa.unparse(
    {
      fields: [...RECONCILIATION_COLUMNS],
      data: rows.map((row) =>
        RECONCILIATION_COLUMNS.map((c) =>
          c === 'timeZone'
            ? timeZone
            : c === 'completedAt'
              ? row.completedAt === null
                ? ''
                : localTime(row.completedAt, timeZone)
              : String(row[c] ?? ''),
        ),
      ),
    },
    { newline: '\r\n', escapeFormulae: true },
  );
}
