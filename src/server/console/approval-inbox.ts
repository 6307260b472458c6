import type { ApprovalItem } from '../../contract/approval-inbox.ts';
import { maskBankAccount, type BankAccount } from '../../contract/bank-account.ts';
import { ERROR_CODES, type Page, type PageRequest } from '../../contract/common.ts';
import type { Transaction } from '../../contract/transaction.ts';
import type { CustodyBackend, CustodyContext } from '../custody/backend.ts';
import { ApiError } from '../../contract/api-error.ts';

/**
 * The approvals inbox as one newest-first list over two custody lists
 * (PENDING transactions, PENDING bank accounts). Each custody list has its
 * own opaque cursor, so the union cannot be paged by passing theirs on:
 * the inbox reads every pending item of both kinds (a short list by nature —
 * each waits for a person), orders them by (createdAt, kind, id) descending
 * and pages with its own keyset cursor over that order. A cursor names the
 * last item shown, not an offset, so items decided or added meanwhile never
 * shift a page onto rows already seen or past rows not yet seen.
 */

const PAGE_OF_PENDING = 100;

/** Every row of a custody list, page by page (the backend's own keyset cursors). */
async function readAll<T>(list: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | undefined;
  for (;;) {
    const page = await list(cursor);
    rows.push(...page.results);
    if (!page.hasNext || !page.nextCursor || page.nextCursor === cursor) return rows;
    cursor = page.nextCursor;
  }
}

function base(
  ctx: CustodyContext,
  row: { id?: string; createdAt?: string; subOrgId?: string | null; createdById?: string },
) {
  const createdById = row.createdById ?? null;
  return {
    id: row.id ?? '',
    createdAt: row.createdAt ?? null,
    subOrgId: row.subOrgId ?? null,
    createdById,
    // Four-eyes: the sandbox and the upstream console both refuse a creator's
    // own decision; here it only decides how the item is shown and counted.
    yours: ctx.actor?.type === 'STAFF' && createdById !== null && createdById === ctx.actor.id,
  };
}

export async function pendingItems(
  backend: CustodyBackend,
  ctx: CustodyContext,
  subOrgId: string | undefined,
): Promise<ApprovalItem[]> {
  const scope = subOrgId ? { subOrgId } : {};
  const [transactions, bankAccounts] = await Promise.all([
    readAll<Transaction>((cursor) =>
      backend.listTransactions(ctx, {
        limit: PAGE_OF_PENDING,
        cursor,
        status: 'PENDING',
        ...scope,
      }),
    ),
    readAll<BankAccount>((cursor) =>
      backend.listBankAccounts(ctx, {
        limit: PAGE_OF_PENDING,
        cursor,
        status: 'PENDING',
        ...scope,
      }),
    ),
  ]);
  const items: ApprovalItem[] = [
    ...transactions.map((transaction) => ({
      kind: 'TRANSACTION' as const,
      ...base(ctx, transaction),
      transaction,
    })),
    ...bankAccounts.map((account) => ({
      kind: 'BANK_ACCOUNT' as const,
      ...base(ctx, account),
      bankAccount: maskBankAccount(account),
    })),
  ];
  return items.sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
}

/** An item's place in the inbox: newest first, then kind, then id (both descending), so the order is total. */
type Key = [time: number, kind: string, id: string];

function keyOf(item: ApprovalItem): Key {
  const time = item.createdAt ? Date.parse(item.createdAt) : Number.NaN;
  // An item without a readable time sorts last rather than breaking the order.
  return [Number.isFinite(time) ? time : 0, item.kind, item.id];
}

/** Negative when `a` comes before `b` in the inbox. */
function compareKeys(a: Key, b: Key): number {
  if (a[0] !== b[0]) return b[0] - a[0];
  if (a[1] !== b[1]) return a[1] < b[1] ? 1 : -1;
  if (a[2] !== b[2]) return a[2] < b[2] ? 1 : -1;
  return 0;
}

function encodeCursor(key: Key): string {
  return Buffer.from(JSON.stringify(key), 'utf8').toString('base64url');
}

function invalidCursor(): ApiError {
  const message = 'cursor is not one this list issued: start again without a cursor';
  return new ApiError(400, ERROR_CODES.invalidCursor, message, [{ field: 'cursor', message }]);
}

function decodeCursor(cursor: string): Key {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    typeof parsed[0] !== 'number' ||
    !Number.isFinite(parsed[0]) ||
    typeof parsed[1] !== 'string' ||
    typeof parsed[2] !== 'string'
  )
    throw invalidCursor();
  return [parsed[0], parsed[1], parsed[2]];
}

/** One page of the ordered items after `page.cursor`, with the counts of the whole inbox. */
export function inboxPage(items: ApprovalItem[], page: PageRequest) {
  const after = page.cursor ? decodeCursor(page.cursor) : null;
  const rest = after ? items.filter((item) => compareKeys(keyOf(item), after) > 0) : items;
  const results = rest.slice(0, page.limit);
  const hasNext = rest.length > page.limit;
  const last = results.at(-1);
  return {
    results,
    nextCursor: hasNext && last ? encodeCursor(keyOf(last)) : null,
    hasNext,
    actionableCount: items.filter((item) => !item.yours).length,
    totalCount: items.length,
  };
}
