import Papa from 'papaparse';
import { PAYMENT_RUN_COLUMNS } from '#contract/payment-runs.ts';

/**
 * A run file's headers matched to the run's columns before it is sent: a
 * header that is a column is taken as it is; any other needs a column (the
 * server refuses a file with an unknown one), guessed from its words and
 * changeable on the page. The server reads the file itself (papaparse, the
 * same parser): this reads only the first line.
 */

export type RunColumn = (typeof PAYMENT_RUN_COLUMNS)[number];
const COLUMNS = new Set<string>(PAYMENT_RUN_COLUMNS);

export function fileHeaders(text: string): string[] {
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { preview: 1 });
  return (parsed.data[0] ?? []).map((h) => h.trim()).filter((h) => h !== '');
}

const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Words a spreadsheet may use for a column (compared without case, spaces or punctuation). */
const SYNONYMS: Record<string, RunColumn> = {
  vault: 'sourceVaultId',
  sourcevault: 'sourceVaultId',
  fromvault: 'sourceVaultId',
  chain: 'blockChain',
  network: 'blockChain',
  token: 'asset',
  currency: 'asset',
  contact: 'contactId',
  recipient: 'contactId',
  destinationaddress: 'address',
  wallet: 'address',
  bankaccount: 'bankAccountId',
  ref: 'reference',
  note: 'memo',
  description: 'memo',
  type: 'kind',
};

export function guessColumn(header: string): RunColumn | null {
  const key = squash(header);
  return PAYMENT_RUN_COLUMNS.find((c) => squash(c) === key) ?? SYNONYMS[key] ?? null;
}

/**
 * Which headers need a column (`needed`), the mapping sent (guesses, then the
 * member's choices over them), and whether every needed header has one.
 */
export function columnMapping(
  headers: readonly string[],
  chosen: Readonly<Record<string, string>>,
): { needed: string[]; mapping: Record<string, string>; complete: boolean } {
  const needed = headers.filter((h) => !COLUMNS.has(h));
  const mapping: Record<string, string> = {};
  for (const header of needed) {
    const column = chosen[header] || guessColumn(header);
    if (column) mapping[header] = column;
  }
  return { needed, mapping, complete: needed.every((h) => mapping[h] !== undefined) };
}
