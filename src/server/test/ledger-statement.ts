import { expect } from 'vitest';
import { pathOf } from '#contract/endpoint.ts';
import { ledgerStatement } from '#contract/endpoints/ledger.ts';
import { LedgerStatementResponse, type LedgerStatementLine } from '#contract/ledger.ts';
import { toQueryString } from '#contract/paths.ts';

/** A statement read: a member's, an app's admin's… (status and body as the test's client gives them). */
type ReadAnswer = (url: string) => Promise<{ status: number; body: unknown }>;

/**
 * Every line of a statement, page after page (`limit` a page, so paging is
 * crossed), and its last page: its totals are the same on every page.
 */
export async function wholeStatement(
  read: ReadAnswer,
  query: Record<string, string>,
  limit: number,
): Promise<{ lines: LedgerStatementLine[]; last: LedgerStatementResponse }> {
  const lines: LedgerStatementLine[] = [];
  let cursor: string | null = null;
  let last: LedgerStatementResponse;
  do {
    const res = await read(
      `${pathOf(ledgerStatement)}${toQueryString({ ...query, limit, ...(cursor ? { cursor } : {}) })}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    last = LedgerStatementResponse.parse(res.body);
    lines.push(...last.results);
    cursor = last.nextCursor;
  } while (cursor);
  return { lines, last };
}
