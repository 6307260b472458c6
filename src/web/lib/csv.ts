/**
 * CSV as RFC 4180 writes it (CRLF line ends, quotes doubled), safe to open in
 * a spreadsheet: a text cell a spreadsheet would run as a formula is prefixed
 * with an apostrophe, which spreadsheets show as text. A formula starts with
 * = + - @ (or their full-width forms), possibly after characters a
 * spreadsheet or the person pasting may strip first: spaces of any kind
 * (NBSP included), control characters, and invisible format characters such
 * as U+200B or U+FEFF; a cell starting with a tab or carriage return is
 * prefixed whatever follows. A plain decimal number such as "-0.5" is data,
 * not a formula, and is written exactly as given — amounts must survive a
 * round trip character for character.
 */

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[\t\r]|^[\s\p{Z}\p{Cc}\p{Cf}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/u;
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$|^'/;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA_START.test(text) && !PLAIN_NUMBER.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/**
 * Spreadsheets read a file without a byte-order mark as their local code page
 * and garble names with accents; with it they read UTF-8.
 */
export const CSV_BOM = '\uFEFF';
