import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Page, PageRequest } from '#contract/common.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { Database } from '../../db/client.ts';
import { transactions } from '../../db/schema/sandbox.ts';
import type { ScopeFilter } from '../call-context.ts';
import { after, decodeCursor, keysetPage, newestFirst } from './keyset.ts';
import { toWireTransaction } from './mappers.ts';

/**
 * One keyset page of the organization's transactions, newest first, held to
 * the query's sub-organization (or a staff member's several: see
 * console/scope-rules.ts) and matching `filters`: the list above, and a
 * bank account's ramps (capabilities/ramps).
 */
export async function transactionPage(
  db: Database,
  orgId: string | null,
  query: PageRequest & ScopeFilter,
  filters: Array<SQL | undefined>,
): Promise<Page<Transaction>> {
  const position = query.cursor ? decodeCursor('transactions', query.cursor) : undefined;
  if (!orgId) return { results: [], hasNext: false, nextCursor: null };
  const conditions: Array<SQL | undefined> = [
    eq(transactions.orgId, orgId),
    ...filters,
    query.subOrgId ? eq(transactions.subOrgId, query.subOrgId) : undefined,
    query.subOrgIds ? inArray(transactions.subOrgId, query.subOrgIds) : undefined,
    position ? after(transactions, position) : undefined,
  ];
  return keysetPage(
    'transactions',
    query.limit,
    (take) =>
      db
        .select()
        .from(transactions)
        .where(and(...conditions))
        .orderBy(...newestFirst(transactions))
        .limit(take),
    toWireTransaction,
  );
}
