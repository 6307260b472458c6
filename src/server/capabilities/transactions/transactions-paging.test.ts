import { and, count, desc, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { paths, toQueryString } from '#contract/paths.ts';
import { TransactionListResponse, type Transaction } from '#contract/transaction.ts';
import { transactions } from '../../db/schema/sandbox.ts';
import { appTestWith } from '../../test/app-test.ts';
import type { TestApp } from '../../test/test-app.ts';

// Paging over the seeded history (hundreds of rows): the one place tests lean
// on seed data, because it is the realistic volume a client pages through.
const appTest = appTestWith({ seed: true });

async function pageThrough(
  t: TestApp,
  query: Record<string, string | number>,
): Promise<{ rows: Transaction[]; pages: number }> {
  const rows: Transaction[] = [];
  let cursor: string | undefined;
  let pages = 0;
  for (;;) {
    const res = await t.getJson(`${paths.transactions()}${toQueryString({ ...query, cursor })}`);
    expect(res.status).toBe(200);
    const page = TransactionListResponse.parse(res.body);
    pages += 1;
    rows.push(...page.results);
    if (!page.hasNext) {
      expect(page.nextCursor).toBeNull();
      return { rows, pages };
    }
    expect(page.results).toHaveLength(Number(query['limit'] ?? 20));
    expect(page.nextCursor).toEqual(expect.any(String));
    cursor = page.nextCursor ?? undefined;
  }
}

function expectNewestFirst(rows: readonly Transaction[]) {
  for (let i = 1; i < rows.length; i += 1) {
    const prev = rows[i - 1];
    const cur = rows[i];
    const order =
      (prev?.createdAt ?? '').localeCompare(cur?.createdAt ?? '') ||
      (prev?.id ?? '').localeCompare(cur?.id ?? '');
    expect(order, `${prev?.id} before ${cur?.id}`).toBeGreaterThan(0);
  }
}

describe('paging through every transaction', () => {
  appTest(
    'visits each row exactly once, newest first, ending with hasNext false',
    async ({ t }) => {
      const expected = await t.db
        .select({ id: transactions.id })
        .from(transactions)
        .where(eq(transactions.orgId, t.orgId))
        .orderBy(desc(transactions.createdAt), desc(transactions.id));
      expect(expected.length).toBeGreaterThanOrEqual(300);

      const { rows, pages } = await pageThrough(t, { limit: 17 });
      expect(rows.map((r) => r.id)).toEqual(expected.map((e) => e.id));
      expect(new Set(rows.map((r) => r.id)).size).toBe(rows.length);
      expect(pages).toBe(Math.ceil(expected.length / 17));
      expectNewestFirst(rows);
    },
  );

  appTest('pages at the maximum size', async ({ t }) => {
    const { rows, pages } = await pageThrough(t, { limit: 100 });
    expect(pages).toBe(Math.ceil(rows.length / 100));
    expectNewestFirst(rows);
  });

  appTest('keeps a filter across pages', async ({ t }) => {
    const [{ total } = { total: 0 }] = await t.db
      .select({ total: count() })
      .from(transactions)
      .where(and(eq(transactions.orgId, t.orgId), eq(transactions.status, 'COMPLETED')));
    const { rows } = await pageThrough(t, { limit: 25, status: 'COMPLETED' });
    expect(rows).toHaveLength(total);
    expect(rows.every((r) => r.status === 'COMPLETED')).toBe(true);
    expectNewestFirst(rows);
  });

  appTest(
    'answers an exact multiple of the page size with hasNext false on the last full page',
    async ({ t }) => {
      const { rows } = await pageThrough(t, { limit: 100 });
      const all = rows.length;
      // Pick a filter window holding exactly 2 × 10 rows: the 20 newest.
      const lte = rows[0]?.createdAt ?? '';
      const gte = rows[19]?.createdAt ?? '';
      const { rows: window, pages } = await pageThrough(t, {
        limit: 10,
        createdAtGte: gte,
        createdAtLte: lte,
      });
      const expected = rows.filter((r) => (r.createdAt ?? '') >= gte && (r.createdAt ?? '') <= lte);
      expect(all).toBeGreaterThan(20);
      expect(window.map((r) => r.id)).toEqual(expected.map((r) => r.id));
      // 20 rows unless seeded timestamps happen to tie at the edge.
      expect(pages).toBe(Math.ceil(expected.length / 10));
    },
  );
});
