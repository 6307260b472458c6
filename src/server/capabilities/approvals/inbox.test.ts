import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '#contract/common.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { createTestDatabase } from '../../test/test-database.ts';
import { approvalInbox, MAX_PENDING_PAGES } from './inbox.ts';

/**
 * Without `pendingApprovals` (upstream) the inbox reads the two custody
 * lists itself. A backend whose lists never end stands in for an upstream
 * with more items waiting than the inbox reads: the reads stop at
 * MAX_PENDING_PAGES pages of each kind (the routes' tests cover the rest
 * through the real app, on both paths).
 */
describe('the approvals inbox without pendingApprovals', () => {
  // The console's own database: it names proposers from the audit log and the staff table.
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
  });
  afterAll(() => handle.close());

  it('reads at most MAX_PENDING_PAGES pages of each kind, and counts what it read', async () => {
    const calls = { transactions: 0, bankAccounts: 0 };
    const endless = <T>(kind: keyof typeof calls, row: (n: number) => T) =>
      (async (_ctx: unknown, query: { limit: number; cursor?: string | undefined }) => {
        calls[kind] += 1;
        const start = Number(query.cursor ?? 0);
        const results = Array.from({ length: query.limit }, (_, i) => row(start + i));
        return { results, hasNext: true, nextCursor: String(start + query.limit) } as Page<T>;
      }) as never;
    const createdAt = (n: number) => new Date(Date.UTC(2030, 0, 1) - n * 1000).toISOString();
    const backend = {
      kind: 'upstream',
      listTransactions: endless('transactions', (n) => ({
        id: `tx-${n}`,
        status: 'PENDING',
        createdAt: createdAt(n),
      })),
      listBankAccounts: endless('bankAccounts', (n) => ({
        id: `ba-${n}`,
        status: 'PENDING',
        createdAt: createdAt(n),
        accountNumber: '123456789',
      })),
      listContacts: async () => ({ results: [], hasNext: false, nextCursor: null }),
    } as unknown as CustodyBackend;

    const answer = await approvalInbox(backend, {}, handle.db, {
      subOrgId: undefined,
      page: { limit: 1 },
    });
    expect(calls).toEqual({ transactions: MAX_PENDING_PAGES, bankAccounts: MAX_PENDING_PAGES });
    expect(answer.totalCount).toBe(2 * MAX_PENDING_PAGES * 100);
    expect(answer.results.map((i) => i.id)).toEqual(['tx-0']);
  });
});
