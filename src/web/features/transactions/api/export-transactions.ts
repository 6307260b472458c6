import type { ApprovalDecision } from '#contract/approval-decision.ts';
import { MAX_PAGE_SIZE } from '#contract/common.ts';
import type { Transaction, TransactionListResponse } from '#contract/transaction.ts';
import { approvalDecisions } from '#contract/endpoints/approvals.ts';
import { listTransactions } from '#contract/endpoints/transaction-list.ts';
import { apiClient, type ApiClient, type TransactionListParams } from '../../../lib/api-client.ts';
import { CSV_BOM } from '../../../lib/csv.ts';
import { transactionCsvHeader, transactionCsvRows } from '../export/transaction-csv.ts';

export interface ExportProgress {
  /** Transactions written so far. */
  rows: number;
  pages: number;
}

export interface ExportTransactionsOptions {
  /** The list's filters and scope, without a cursor: the export starts at the newest. */
  filters: Omit<TransactionListParams, 'cursor' | 'limit'>;
  signal: AbortSignal;
  onProgress?: (progress: ExportProgress) => void;
  /** The member's time zone: the file's times are written in it. */
  timeZone: string;
  client?: Pick<ApiClient, 'call'>;
}

/** Lets the browser paint and handle input between pages, so a long export never freezes the page. */
const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Every transaction matching the filters, as a CSV file built in the browser
 * from the console's own API: pages of 100 (the API's maximum) walked by
 * cursor, each page's approval decisions fetched while the next page loads,
 * and the CSV kept as one string per page until the Blob joins them (a
 * 10,000-row file is a few megabytes). Aborting the signal stops it between
 * or during requests with an AbortError.
 */
export async function exportTransactionsCsv({
  filters,
  signal,
  onProgress,
  timeZone,
  client = apiClient,
}: ExportTransactionsOptions): Promise<{ blob: Blob; rows: number }> {
  const parts: string[] = [CSV_BOM + transactionCsvHeader()];
  const seen = new Set<string>();
  const fetchPage = (cursor: string | undefined) =>
    client.call(
      listTransactions,
      { query: { ...filters, limit: MAX_PAGE_SIZE, cursor } },
      { signal },
    );

  let rows = 0;
  let pages = 0;
  let cursor: string | undefined;
  let page: TransactionListResponse | undefined = await fetchPage(undefined);
  while (page) {
    // Keyset pages do not overlap; should a row come twice anyway, it is written once.
    const fresh: Transaction[] = page.results.filter((tx) => !tx.id || !seen.has(tx.id));
    for (const tx of fresh) if (tx.id) seen.add(tx.id);

    const next: string | undefined =
      page.hasNext !== false && page.nextCursor ? page.nextCursor : undefined;
    if (next !== undefined && next === cursor) {
      throw new Error('The transaction list answered the same page twice; the export stopped');
    }
    const ids: string[] = fresh.map((tx) => tx.id).filter((id): id is string => Boolean(id));
    const [decisions, following]: [
      { results: ApprovalDecision[] },
      TransactionListResponse | undefined,
    ] = await Promise.all([
      ids.length > 0
        ? client.call(approvalDecisions, { query: { entityIds: ids.join(',') } }, { signal })
        : Promise.resolve({ results: [] as ApprovalDecision[] }),
      next !== undefined ? fetchPage(next) : Promise.resolve(undefined),
    ]);

    parts.push(
      transactionCsvRows(fresh, new Map(decisions.results.map((d) => [d.entityId, d])), timeZone),
    );
    rows += fresh.length;
    pages += 1;
    onProgress?.({ rows, pages });
    cursor = next;
    page = following;
    await yieldToEventLoop();
    signal.throwIfAborted();
  }
  return { blob: new Blob(parts, { type: 'text/csv;charset=utf-8' }), rows };
}

/** `transactions-2026-11-23T09-15-02Z.csv`: sortable, and safe on every file system. */
export function exportFileName(now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replaceAll(':', '-');
  return `transactions-${stamp}.csv`;
}
