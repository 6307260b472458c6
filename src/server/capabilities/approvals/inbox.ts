import { and, eq, inArray, isNull } from 'drizzle-orm';
import type {
  ApprovalInboxResponse,
  ApprovalItem,
  ApprovalVault,
} from '#contract/approval-inbox.ts';
import { maskBankAccount, type BankAccount } from '#contract/bank-account.ts';
import type { ChangeRequestActor } from '#contract/change-request.ts';
import { ERROR_CODES, type Page, type PageRequest } from '#contract/common.ts';
import type { Contact } from '#contract/reference.ts';
import type { Transaction } from '#contract/transaction.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';
import type { PendingApproval } from './port.ts';
import type { Database } from '../../db/client.ts';
import { cachedRead } from '../../db/read-cache.ts';
import { approvalRequirements, approvalVotes, auditLog, staff } from '../../db/schema/console.ts';
import { ApiError } from '#contract/api-error.ts';
import { approvalProgress, requirementsOf } from '../policies/progress.ts';
import { heldWaiting, type HeldWaiting } from './core/held-inbox.ts';
import { isHeldKind, type ApprovableKind, type CardContext } from './core/kind.ts';

/**
 * The approvals inbox as one newest-first list of PENDING transactions, bank
 * accounts and contacts, and the items of the kinds the console holds itself
 * (read through the approval core, core/held-inbox.ts: no kind is named
 * here), ordered by (createdAt, kind, id) descending and
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
 *
 * Each item names who proposed it and the vault it spends from, read for the
 * page's items together (never a request per row): the sandbox reads the
 * proposer with each row (its creator, an API client by name); otherwise the
 * console's own audit log of creates names the member who made it through
 * this console (the source the transaction and bank-account histories fall
 * back to), which also decides `yours` there, since upstream every member
 * acts as the one API user. Staff are named from the console's staff table;
 * a creator id the backend could not type is looked up among them.
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

/** The creates whose audit rows name an inbox item's proposer (upstream; history.routes.ts reads the same). */
const CREATE_ACTIONS = [
  'transaction.create',
  'transaction.replace',
  'bank_account.create',
  'contact.create',
];
/** Ids per `IN (…)` list: far below any driver's parameter limit. */
const IDS_PER_QUERY = 1_000;

/** The record an inbox item is about: its id, owner, creator and time. */
function recordOf(pending: PendingApproval) {
  switch (pending.kind) {
    case 'TRANSACTION':
      return pending.transaction;
    case 'BANK_ACCOUNT':
      return pending.bankAccount;
    case 'CONTACT':
      // What waits is the change request: an edit waits from when it was proposed, by its proposer.
      return {
        ...pending.contact,
        createdAt: pending.requestedAt,
        createdById: pending.requestedById,
      };
  }
}

function entityIdOf(pending: PendingApproval): string {
  return recordOf(pending).id ?? '';
}

function chunks<T>(values: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += IDS_PER_QUERY)
    out.push(values.slice(i, i + IDS_PER_QUERY));
  return out;
}

/** Who this console recorded creating each entity (its successful create's audit row). */
async function auditedCreators(
  db: Database,
  entityIds: readonly string[],
): Promise<Map<string, ChangeRequestActor>> {
  const found = new Map<string, ChangeRequestActor>();
  for (const ids of chunks([...new Set(entityIds.filter(Boolean))])) {
    const rows = await db
      .select({
        entityId: auditLog.entityId,
        type: auditLog.actorType,
        id: auditLog.actorId,
        name: auditLog.actorName,
      })
      .from(auditLog)
      .where(
        and(
          inArray(auditLog.entityId, ids),
          inArray(auditLog.action, CREATE_ACTIONS),
          eq(auditLog.outcome, 'success'),
        ),
      );
    for (const row of rows) {
      if (row.entityId && row.id && !found.has(row.entityId)) {
        found.set(row.entityId, { type: row.type, id: row.id, name: row.name ?? null });
      }
    }
  }
  return found;
}

/**
 * Every member's name by id, as the staff table has them now: one read
 * reused while the table is unchanged (db/read-cache.ts), since every page's
 * navigation asks for the inbox's count and each page names its proposers.
 * A console has members by the dozen or hundred, not more.
 */
async function staffNames(db: Database): Promise<Map<string, string>> {
  const rows = await cachedRead(
    'inbox-staff-names',
    () => db.select({ id: staff.id, name: staff.name }).from(staff),
    [staff],
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/**
 * The proposer of each page item, named: the backend's record, else the
 * console's audit log, else a member whose id the item's createdById is;
 * staff by their name in the staff table.
 */
async function nameInitiators(db: Database, items: ApprovalItem[]): Promise<ApprovalItem[]> {
  if (items.length === 0) return items;
  const names = await staffNames(db);
  return items.map((item) => {
    const who = item.initiator;
    if (who) {
      return who.type === 'STAFF'
        ? { ...item, initiator: { ...who, name: names.get(who.id) ?? who.name ?? null } }
        : item;
    }
    const member = item.createdById ? names.get(item.createdById) : undefined;
    return member !== undefined && item.createdById
      ? { ...item, initiator: { type: 'STAFF', id: item.createdById, name: member } }
      : item;
  });
}

/** The vault a transaction spends from, as it names it. */
function vaultOf(tx: Transaction): ApprovalVault | null {
  const source = tx.source?.type === 'VAULT' ? tx.source : undefined;
  const id = source?.id ?? tx.vaultId;
  return id ? { id, name: (source?.id === id ? source.name : undefined) ?? null } : null;
}

/** Names the page's vaults that the transactions left unnamed: one read per distinct vault. */
async function nameVaults(
  backend: CustodyBackend,
  ctx: CustodyContext,
  items: ApprovalItem[],
): Promise<ApprovalItem[]> {
  const unnamed = new Set<string>();
  for (const item of items)
    if (item.kind === 'TRANSACTION' && item.vault && item.vault.name === null)
      unnamed.add(item.vault.id);
  if (unnamed.size === 0) return items;
  const names = new Map<string, string | null>();
  await Promise.all(
    [...unnamed].map(async (id) => {
      // A vault the member may not read, or that is gone, stays unnamed rather than failing the inbox.
      const vault = await backend.getVault(ctx, id).catch(() => undefined);
      names.set(id, vault?.vaultName ?? null);
    }),
  );
  return items.map((item) =>
    item.kind === 'TRANSACTION' && item.vault && item.vault.name === null
      ? { ...item, vault: { ...item.vault, name: names.get(item.vault.id) ?? null } }
      : item,
  );
}

/** The page's items named for the answer: proposers and vaults. */
async function named(
  backend: CustodyBackend,
  ctx: CustodyContext,
  db: Database,
  items: ApprovalItem[],
): Promise<ApprovalItem[]> {
  return nameVaults(backend, ctx, await nameInitiators(db, items));
}

/**
 * Each page item's progress under the rule frozen on it: three reads for the
 * page. The items are the member's to see already (the scoped backend listed them).
 */
export async function withProgress(
  db: Database,
  items: ApprovalItem[],
  kinds: readonly ApprovableKind[],
  memberId: string | null = null,
): Promise<ApprovalItem[]> {
  const rows = await requirementsOf(
    db,
    items.map((item) => item.id),
  );
  const byId = new Map(rows.map((row) => [row.entityId, row]));
  const found = await approvalProgress(
    db,
    items.flatMap((item) => {
      const row = byId.get(item.id);
      return row ? [{ row, subOrgId: item.subOrgId, held: isHeldKind(kinds, row.entityType) }] : [];
    }),
    memberId,
  );
  const progress = new Map(found.map((p) => [p.entityId, p]));
  return items.map((item) => ({ ...item, progress: progress.get(item.id) ?? null }));
}

/**
 * The items `memberId` approved that still wait for more approvals (their
 * rule's quorum not reached): when, by item. A member has few such at a time.
 * Kept while no vote or requirement is written (db/read-cache.ts): every
 * inbox and overview read of an approver starts here. Shared: never mutated.
 */
async function approvedAndWaiting(
  db: Database,
  memberId: string | undefined,
): Promise<ReadonlyMap<string, string>> {
  if (!memberId) return new Map();
  return cachedRead(
    `approved-and-waiting:${memberId}`,
    async () => {
      const rows = await db
        .select({ entityId: approvalVotes.entityId, at: approvalVotes.at })
        .from(approvalVotes)
        .innerJoin(approvalRequirements, eq(approvalRequirements.entityId, approvalVotes.entityId))
        .where(
          and(
            eq(approvalVotes.actorType, 'STAFF'),
            eq(approvalVotes.actorId, memberId),
            eq(approvalVotes.decision, 'APPROVE'),
            isNull(approvalRequirements.settled),
          ),
        );
      return new Map(rows.map((row) => [row.entityId, row.at.toISOString()]));
    },
    [approvalVotes, approvalRequirements],
  );
}

function itemOf(
  ctx: CustodyContext,
  pending: PendingApproval,
  recorded?: ChangeRequestActor,
  approvedAt?: ReadonlyMap<string, string>,
): Exclude<ApprovalItem, { kind: 'HELD' }> {
  const row = recordOf(pending);
  const createdById = row.createdById ?? null;
  const initiator = pending.initiator ?? recorded ?? null;
  const member = ctx.actor?.type === 'STAFF' ? ctx.actor.id : undefined;
  const base = {
    id: row.id ?? '',
    createdAt: row.createdAt ?? null,
    subOrgId: row.subOrgId ?? null,
    createdById,
    // Four-eyes: the sandbox and the upstream console both refuse a creator's own decision;
    // here it only decides how the item is shown and counted. Upstream the custody API's
    // createdById is the API user every member acts as: the recorded proposer says who.
    yours:
      member !== undefined &&
      (createdById === member || (initiator?.type === 'STAFF' && initiator.id === member)),
    initiator,
    youApprovedAt: approvedAt?.get(row.id ?? '') ?? null,
  };
  switch (pending.kind) {
    case 'TRANSACTION':
      return {
        kind: 'TRANSACTION',
        ...base,
        vault: vaultOf(pending.transaction),
        transaction: pending.transaction,
      };
    case 'BANK_ACCOUNT':
      return { kind: 'BANK_ACCOUNT', ...base, bankAccount: maskBankAccount(pending.bankAccount) };
    case 'CONTACT':
      return { kind: 'CONTACT', ...base, contact: pending.contact };
  }
}

/** A held item before its card is read (only a page's items are given theirs). */
interface HeldItem {
  kind: 'HELD';
  id: string;
  createdAt: string;
  subOrgId: string | null;
  createdById: string | null;
  yours: boolean;
  initiator: ChangeRequestActor;
  youApprovedAt: string | null;
  held: HeldWaiting;
}
type Listed = Exclude<ApprovalItem, { kind: 'HELD' }> | HeldItem;

function heldItemOf(
  item: HeldWaiting,
  member: string | undefined,
  approvedAt: ReadonlyMap<string, string>,
): HeldItem {
  const staff = item.initiator.type === 'STAFF';
  return {
    kind: 'HELD',
    id: item.id,
    createdAt: item.createdAt,
    subOrgId: item.subOrgId,
    createdById: staff ? item.initiator.id : null,
    yours: staff && item.initiator.id === member,
    initiator: item.initiator,
    youApprovedAt: approvedAt.get(item.id) ?? null,
    held: item,
  };
}

/** The page's held items with their cards; one decided meanwhile has none and is left out. */
async function withCards(card: CardContext, items: readonly Listed[]): Promise<ApprovalItem[]> {
  const read = await Promise.all(
    items.map(async (item): Promise<ApprovalItem | null> => {
      if (item.kind !== 'HELD') return item;
      const { held, ...rest } = item;
      const found = await held.kind.loadCard(card, held.id);
      return found ? { ...rest, card: found } : null;
    }),
  );
  return read.filter((item) => item !== null);
}

/** The kinds the console holds itself, read into the inbox through the approval core. */
export interface HeldSource {
  kinds: readonly ApprovableKind[];
  clock: CardContext['clock'];
}

/** What every inbox read starts from: the member, what they approved, and the held items waiting. */
async function inboxStart(
  backend: CustodyBackend,
  ctx: CustodyContext,
  db: Database,
  subOrgId: string | undefined,
  source: HeldSource | undefined,
) {
  const member = ctx.actor?.type === 'STAFF' ? ctx.actor.id : undefined;
  // What the member approved and still waits for others is no longer theirs to decide.
  const approvedAt = await approvedAndWaiting(db, member);
  const card: CardContext | null = source
    ? { backend, ctx, db, clock: source.clock, memberId: member ?? null }
    : null;
  const held = card
    ? (await heldWaiting(card, source?.kinds ?? [], subOrgId)).map((item) =>
        heldItemOf(item, member, approvedAt),
      )
    : [];
  // The backend's query: its scope, and what the member proposed and approved, counted apart.
  const pendingQuery = {
    ...(member ? { creatorId: member } : {}),
    ...(approvedAt.size > 0 ? { decidedIds: [...approvedAt.keys()] } : {}),
    ...(subOrgId ? { subOrgId } : {}),
  };
  return { approvedAt, card, held, pendingQuery };
}

/**
 * Upstream: every pending item of the custody API's lists in scope (at most
 * MAX_PENDING_PAGES pages of each kind), its proposer from the audit log.
 */
async function everyPending(
  backend: CustodyBackend,
  ctx: CustodyContext,
  db: Database,
  subOrgId: string | undefined,
  approvedAt: ReadonlyMap<string, string>,
): Promise<Listed[]> {
  const scope = subOrgId ? { subOrgId } : {};
  const [transactions, bankAccounts, contacts] = await Promise.all([
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
    // Proposed contacts; a change to an approved contact's assets is not listed by the custody API.
    readNewest<Contact>((cursor) =>
      backend.listContacts(ctx, {
        limit: PAGE_OF_PENDING,
        cursor,
        status: 'PENDING',
        ...scope,
      }),
    ),
  ]);
  const pending: PendingApproval[] = [
    ...transactions.map((transaction) => ({ kind: 'TRANSACTION' as const, transaction })),
    ...bankAccounts.map((bankAccount) => ({ kind: 'BANK_ACCOUNT' as const, bankAccount })),
    ...contacts.map((contact) => ({
      kind: 'CONTACT' as const,
      contact,
      requestedAt: contact.createdAt ?? '',
      requestedById: contact.createdById ?? '',
    })),
  ];
  // Every item read, not only the page's: which are the member's own decides the count.
  const creators = await auditedCreators(db, pending.map(entityIdOf));
  return pending.map((p) => itemOf(ctx, p, creators.get(entityIdOf(p)), approvedAt));
}

/** One page of the inbox after `page.cursor`, with the counts of the whole inbox. */
export async function approvalInbox(
  backend: CustodyBackend,
  ctx: CustodyContext,
  db: Database,
  query: { subOrgId: string | undefined; page: PageRequest },
  source?: HeldSource,
): Promise<ApprovalInboxResponse> {
  const after = query.page.cursor ? decodeCursor(query.page.cursor) : null;
  const { approvedAt, card, held, pendingQuery } = await inboxStart(
    backend,
    ctx,
    db,
    query.subOrgId,
    source,
  );
  const page = async (items: readonly Listed[]) =>
    named(backend, ctx, db, card ? await withCards(card, items) : (items as ApprovalItem[]));
  if (backend.pendingApprovals) {
    const found = await backend.pendingApprovals(ctx, {
      limit: query.page.limit,
      ...(after ? { after: { createdAt: new Date(after[0]), kind: after[1], id: after[2] } } : {}),
      ...pendingQuery,
    });
    // The backend's page and every held item after the cursor, in the one order: the page's
    // first `limit` are the inbox's (the backend's next rows all come after its last one).
    const merged: Listed[] = [
      ...found.items.map((item) => itemOf(ctx, item, undefined, approvedAt)),
      ...(after ? held.filter((item) => compareKeys(keyOf(item), after) > 0) : held),
    ].sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
    const results = merged.slice(0, query.page.limit);
    const hasNext = found.hasNext || merged.length > query.page.limit;
    const last = results.at(-1);
    const counts = countsOf(held);
    return {
      results: await page(results),
      nextCursor: hasNext && last ? encodeCursor(keyOf(last)) : null,
      hasNext,
      actionableCount: found.actionableCount + counts.actionableCount,
      totalCount: found.totalCount + counts.totalCount,
      youApprovedCount: found.youApprovedCount + counts.youApprovedCount,
    };
  }
  const pending = await everyPending(backend, ctx, db, query.subOrgId, approvedAt);
  const items: Listed[] = [...pending, ...held].sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
  const found = inboxPage(items, query.page.limit, after);
  return { ...found, results: await page(found.results) };
}

/** What waits on a member, for the overview and the inbox's badge: its counts and its oldest item. */
export interface InboxWaiting {
  actionableCount: number;
  totalCount: number;
  /** Approved by the member and still waiting for others. */
  youApprovedCount: number;
  /** When the oldest item the member did not propose came in (decided by them or not); null when none. */
  oldestAt: string | null;
}

/** The oldest of `items` the member did not propose, by its createdAt as given. */
function oldestNotTheirs(
  items: readonly { yours: boolean; createdAt: string | null }[],
): string | null {
  let oldest: { at: number; createdAt: string } | null = null;
  for (const item of items) {
    const at = item.yours || !item.createdAt ? Number.NaN : Date.parse(item.createdAt);
    if (Number.isFinite(at) && (!oldest || at < oldest.at))
      oldest = { at, createdAt: item.createdAt ?? '' };
  }
  return oldest?.createdAt ?? null;
}

/**
 * The inbox's counts and when its oldest item the member did not propose came
 * in, as the inbox's own pages would show them, but without reading a page:
 * no item is named or carded. The sandbox answers both in its count queries;
 * upstream they are read from every pending item, as the inbox's count is.
 */
export async function approvalInboxWaiting(
  backend: CustodyBackend,
  ctx: CustodyContext,
  db: Database,
  subOrgId: string | undefined,
  source?: HeldSource,
): Promise<InboxWaiting> {
  const { approvedAt, held, pendingQuery } = await inboxStart(backend, ctx, db, subOrgId, source);
  const heldCounts = countsOf(held);
  const heldOldest = oldestNotTheirs(held);
  if (backend.pendingApprovals) {
    // No page: its counts alone (limit 0).
    const found = await backend.pendingApprovals(ctx, {
      limit: 0,
      withOldest: true,
      ...pendingQuery,
    });
    const backendOldest = found.oldestNotTheirsAt?.toISOString() ?? null;
    return {
      actionableCount: found.actionableCount + heldCounts.actionableCount,
      totalCount: found.totalCount + heldCounts.totalCount,
      youApprovedCount: found.youApprovedCount + heldCounts.youApprovedCount,
      oldestAt: oldestNotTheirs([
        { yours: false, createdAt: backendOldest },
        { yours: false, createdAt: heldOldest },
      ]),
    };
  }
  const items = [...(await everyPending(backend, ctx, db, subOrgId, approvedAt)), ...held];
  return { ...countsOf(items), oldestAt: oldestNotTheirs(items) };
}

/** An item's place in the inbox: newest first, then kind, then id (both descending), so the order is total. */
type Key = [time: number, kind: string, id: string];

function keyOf(item: { createdAt: string | null; kind: string; id: string }): Key {
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
    (parsed[1] !== 'TRANSACTION' &&
      parsed[1] !== 'BANK_ACCOUNT' &&
      parsed[1] !== 'CONTACT' &&
      parsed[1] !== 'HELD') ||
    typeof parsed[2] !== 'string'
  )
    throw invalidCursor();
  return [parsed[0], parsed[1], parsed[2]];
}

/** The inbox's counts over `items`: what the member may decide, all, and what they approved. */
function countsOf(items: readonly { yours: boolean; youApprovedAt?: string | null | undefined }[]) {
  return {
    actionableCount: items.filter((item) => !item.yours && !item.youApprovedAt).length,
    totalCount: items.length,
    youApprovedCount: items.filter((item) => !item.yours && item.youApprovedAt).length,
  };
}

/** One page of the ordered items after `after`, with the counts of all of them. */
function inboxPage(items: Listed[], limit: number, after: Key | null) {
  const rest = after ? items.filter((item) => compareKeys(keyOf(item), after) > 0) : items;
  const results = rest.slice(0, limit);
  const hasNext = rest.length > limit;
  const last = results.at(-1);
  return {
    results,
    nextCursor: hasNext && last ? encodeCursor(keyOf(last)) : null,
    hasNext,
    ...countsOf(items),
  };
}
