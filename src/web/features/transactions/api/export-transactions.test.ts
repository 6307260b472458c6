import { describe, expect, it, vi } from 'vitest';
import type { Transaction } from '#contract/transaction.ts';
import { approvalDecisions } from '#contract/endpoints/approvals.ts';
import { listTransactions as listEndpoint } from '#contract/endpoints/transactions.ts';
import type { ApiClient, TransactionListParams } from '../../../lib/api-client.ts';
import { csvRecords } from '../../../test/parse-csv.ts';
import { exportFileName, exportTransactionsCsv } from './export-transactions.ts';

function makeTransactions(n: number): Transaction[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `tx-${String(i).padStart(4, '0')}`,
    status: i % 2 === 0 ? 'COMPLETED' : 'PENDING',
    amount: `${i}.000000001`,
    asset: 'BTC',
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, 0) - i * 1000).toISOString(),
  }));
}

/** A list endpoint over `rows`, paged by cursor = offset, answering what it was asked. */
function fakeClient(rows: Transaction[]) {
  const listTransactions = vi.fn(async (params: TransactionListParams = {}) => {
    const offset = params.cursor ? Number(params.cursor) : 0;
    const limit = params.limit ?? 20;
    const results = rows.slice(offset, offset + limit);
    const hasNext = offset + limit < rows.length;
    return { results, hasNext, nextCursor: hasNext ? String(offset + limit) : null };
  });
  const listApprovalDecisions = vi.fn(async (ids: readonly string[]) => ({
    results: ids
      .filter((id) => rows.find((r) => r.id === id)?.status === 'COMPLETED')
      .map((entityId) => ({
        entityId,
        entityType: 'TRANSACTION',
        decision: 'APPROVED' as const,
        decidedAt: '2026-01-01T00:00:00.000Z',
        decidedBy: { type: 'STAFF', id: 's', name: 'Sam' },
      })),
  }));
  // The client's one call, answered by the endpoint it is given.
  const call = (async (e: unknown, input: { query?: Record<string, unknown> }) => {
    if (e === listEndpoint) return listTransactions(input.query as TransactionListParams);
    if (e === approvalDecisions)
      return listApprovalDecisions(String(input.query?.['entityIds']).split(','));
    throw new Error('not an endpoint the export calls');
  }) as ApiClient['call'];
  return { call, listTransactions, listApprovalDecisions };
}

describe('exportTransactionsCsv', () => {
  it('walks every page at 100 rows with the filters and writes each transaction once', async () => {
    const rows = makeTransactions(250);
    const client = fakeClient(rows);
    const progress: number[] = [];
    const { blob, rows: count } = await exportTransactionsCsv({
      filters: { status: 'COMPLETED', subOrgId: 'desk-a' },
      timeZone: 'UTC',
      signal: new AbortController().signal,
      onProgress: (p) => progress.push(p.rows),
      client,
    });
    expect(count).toBe(250);
    expect(progress).toEqual([100, 200, 250]);
    expect(client.listTransactions).toHaveBeenCalledTimes(3);
    for (const [params] of client.listTransactions.mock.calls) {
      expect(params).toMatchObject({ status: 'COMPLETED', subOrgId: 'desk-a', limit: 100 });
    }
    expect(client.listApprovalDecisions.mock.calls.every(([ids]) => ids.length <= 100)).toBe(true);

    const records = csvRecords(await blob.text());
    expect(records.map((r) => r.id)).toEqual(rows.map((r) => r.id));
    expect(records[7]?.amount).toBe('7.000000001');
    expect(records[0]?.approvalDecision).toBe('APPROVED');
    expect(records[1]?.approvalDecision).toBe('');
  });

  it('stops with an AbortError when cancelled, without asking for more pages', async () => {
    const client = fakeClient(makeTransactions(1000));
    const controller = new AbortController();
    const run = exportTransactionsCsv({
      filters: {},
      timeZone: 'UTC',
      signal: controller.signal,
      onProgress: (p) => {
        if (p.pages === 2) controller.abort();
      },
      client,
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    // Page 3 was already on its way when page 2 finished; nothing after it.
    expect(client.listTransactions.mock.calls.length).toBeLessThanOrEqual(3);
  });

  it('names the file after the moment it was made', () => {
    expect(exportFileName(new Date('2026-11-23T09:15:02.345Z'))).toBe(
      'transactions-2026-11-23T09-15-02Z.csv',
    );
  });
});
