import type { ApprovalInboxResponse, ApprovalItem } from '../../contract/approval-inbox.ts';
import { maskBankAccount, type BankAccount } from '../../contract/bank-account.ts';
import { ERROR_CODES, type Page, type PageRequest } from '../../contract/common.ts';
import type { Transaction } from '../../contract/transaction.ts';
import type { CustodyBackend, CustodyContext, PendingApproval } from '../custody/backend.ts';
import { ApiError } from '../../contract/api-error.ts';

/**
 * The approvals inbox as one newest-first list of PENDING transactions and
 * PENDING bank accounts, ordered by (createdAt, kind, id) descending and
 * paged with its own keyset cursor over that order. A cursor names the last
 * item shown, not an offset, so items decided or added meanwhile never
 * shift a page onto rows already seen or past rows not yet seen.
 *
 * A backend that offers `pendingApprovals` (the sandbox) answers a page and
 * the counts itself: keyset reads from the cursor's position and COUNT
 * queries, so a page, and the count each page's navigation asks for, reads
 * one page of rows however many items wait. The custody API lists the two kinds
 * apart, each with its own opaque cursor, so upstream the inbox reads the
 * pending items of both (newest first) and pages them here — at most
 * MAX_PENDING_PAGES pages of each kind: beyond that many waiting, the inbox
 * shows and counts the newest ones.
 */

const PAGE_OF_PENDING = 100;
/** Upstream: list pages read per kind for one inbox answer (1,000 items of each). */
export const MAX_PENDING_PAGES = 10;

/** The rows of a custody list, page by page (the backend's own keyset cursors), up to MAX_PENDING_PAGES. */
async function readNewest<T>(list: (cursor: string | undefined) => Promise<Page<T>>): Promise<T[]> {
  const rows: T[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < MAX_PENDING_PAGES; pages += 1) {
    const page = await list(cursor);
    rows.push(...page.results);
    if (!page.hasNext || !page.nextCursor || page.nextCursor === cursor) break;
    cursor = page.nextCursor;
  }
  return rows;
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

function itemOf(ctx: CustodyContext, pending: PendingApproval): ApprovalItem {
  return pending.kind === 'TRANSACTION'
    ? { kind: 'TRANSACTION', ...base(ctx, pending.transaction), transaction: pending.transaction }
    : {
        kind: 'BANK_ACCOUNT',
        ...base(ctx, pending.bankAccount),
        bankAccount: maskBankAccount(pending.bankAccount),
      };
}

/** One page of the inbox after `page.cursor`, with the counts of the whole inbox. */
export async function approvalInbox(
  backend: CustodyBackend,
  ctx: CustodyContext,
  query: { subOrgId: string | undefined; page: PageRequest },
): Promise<ApprovalInboxResponse> {
  const after = query.page.cursor ? decodeCursor(query.page.cursor) : null;
  const scope = query.subOrgId ? { subOrgId: query.subOrgId } : {};
  if (backend.pendingApprovals) {
    const found = await backend.pendingApprovals(ctx, {
      limit: query.page.limit,
      ...(after ? { after: { createdAt: new Date(after[0]), kind: after[1], id: after[2] } } : {}),
      ...(ctx.actor?.type === 'STAFF' ? { creatorId: ctx.actor.id } : {}),
      ...scope,
    });
    const results = found.items.map((item) => itemOf(ctx, item));
    const last = results.at(-1);
    return {
      results,
      nextCursor: found.hasNext && last ? encodeCursor(keyOf(last)) : null,
      hasNext: found.hasNext,
      actionableCount: found.actionableCount,
      totalCount: found.totalCount,
    };
  }
  const [transactions, bankAccounts] = await Promise.all([
    readNewest<Transaction>((cursor) =>
      backend.listTransactions(ctx, {
        limit: PAGE_OF_PENDING,
        cursor,
        status: 'PENDING',
        ...scope,
      }),
    ),
    readNewest<BankAccount>((cursor) =>
      backend.listBankAccounts(ctx, {
        limit: PAGE_OF_PENDING,
        cursor,
        status: 'PENDING',
        ...scope,
      }),
    ),
  ]);
  const items = [
    ...transactions.map((transaction) => itemOf(ctx, { kind: 'TRANSACTION', transaction })),
    ...bankAccounts.map((bankAccount) => itemOf(ctx, { kind: 'BANK_ACCOUNT', bankAccount })),
  ].sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
  return inboxPage(items, query.page.limit, after);
}

/** An item's place in the inbox: newest first, then kind, then id (both descending), so the order is total. */
type Key = [time: number, kind: ApprovalItem['kind'], id: string];

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

const EARLIEST = Date.UTC(1900, 0, 1);
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

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
    !Number.isSafeInteger(parsed[0]) ||
    // A time the database can hold (a made-up one would otherwise fail the query).
    parsed[0] < EARLIEST ||
    parsed[0] > LATEST ||
    (parsed[1] !== 'TRANSACTION' && parsed[1] !== 'BANK_ACCOUNT') ||
    typeof parsed[2] !== 'string'
  )
    throw invalidCursor();
  return [parsed[0], parsed[1], parsed[2]];
}

/** One page of the ordered items after `after`, with the counts of all of them. */
function inboxPage(items: ApprovalItem[], limit: number, after: Key | null) {
  const rest = after ? items.filter((item) => compareKeys(keyOf(item), after) > 0) : items;
  const results = rest.slice(0, limit);
  const hasNext = rest.length > limit;
  const last = results.at(-1);
  return {
    results,
    nextCursor: hasNext && last ? encodeCursor(keyOf(last)) : null,
    hasNext,
    actionableCount: items.filter((item) => !item.yours).length,
    totalCount: items.length,
  };
}
