import { eq, sql } from 'drizzle-orm';
import { isZero, sub } from '#contract/decimal.ts';
import { pathOf } from '#contract/endpoint.ts';
import { getDetailedBalances } from '#contract/endpoints/vaults.ts';
import { paths } from '#contract/paths.ts';
import { VaultListResponse } from '#contract/reference.ts';
import { TransactionListResponse, type Transaction } from '#contract/transaction-record.ts';
import { DetailedBalanceList } from '#contract/vault.ts';
import { ApiError } from '#contract/api-error.ts';
import type { Database } from '../../../db/client.ts';
import { upstreamLedgerMovements, upstreamLedgerSync } from '../../../db/schema/console.ts';
import type { UpstreamDeps } from '../../../custody/upstream/upstream-deps.ts';
import { mayStillSettle, movementsOf } from './movements.ts';

/**
 * Reads the custody API into the console's ledger (upstream mode): its
 * vaults, each vault's balances now (the anchor, and the prices), then the
 * transactions created since the last sync's frontier, a page at a time,
 * each page's movements written with the cursor of the next (a sync cut
 * short goes on from there; a movement read twice is written once). Then,
 * in one database transaction: the first sync books each vault's opening
 * balance (what it holds now less every movement seen) just before the
 * oldest movement, so earlier days are worked back from today's balance;
 * a later one books what the balances hold beyond the movements seen as an
 * adjustment (a staking reward, a deposit the list does not show).
 */

const STATE_ID = 'ledger';
/** One sync's movements and adjustments, and the time before which nothing is known. */
export interface SyncResult {
  added: number;
  adjustments: number;
  knownFrom: Date;
  syncedAt: Date;
}

type SyncDeps = Pick<UpstreamDeps, 'db' | 'clock' | 'read' | 'listPage'>;

interface Anchor {
  vaultId: string;
  subOrgId: string | null;
  asset: string;
  chain: string;
  balance: string;
}

const rowKey = (r: { vaultId: string; asset: string; chain: string }) =>
  `${r.vaultId}\u0000${r.asset}\u0000${r.chain}`;

export async function syncUpstreamLedger(
  deps: SyncDeps,
  { pageSize = 100 }: { pageSize?: number } = {},
): Promise<SyncResult> {
  const { db, clock, read, listPage } = deps;
  const now = clock.now();
  const ctx = {};
  const vaults = new Map<string, string | null>();
  let vaultCursor: string | undefined;
  do {
    const page = await listPage(
      ctx,
      VaultListResponse,
      paths.vaults(),
      {},
      {
        limit: pageSize,
        cursor: vaultCursor,
      },
    );
    for (const v of page.results) if (v.id) vaults.set(v.id, v.subOrgId ?? null);
    vaultCursor = page.hasNext && page.nextCursor ? page.nextCursor : undefined;
  } while (vaultCursor);

  // Balances before transactions: a transaction listed after its balances were read books an
  // adjustment the next sync reverses, never a movement lost.
  const anchors: Anchor[] = [];
  const prices = new Map<string, string>();
  for (const [vaultId, subOrgId] of vaults) {
    const balances = await read(ctx, DetailedBalanceList, pathOf(getDetailedBalances, { vaultId }));
    for (const b of balances) {
      if (!b.chain) continue;
      anchors.push({ vaultId, subOrgId, asset: b.symbol, chain: b.chain, balance: b.balance });
      if (b.price) prices.set(`${b.symbol}\u0000${b.chain}`, b.price);
    }
  }
  const priceOf = (asset: string, chain: string) => prices.get(`${asset}\u0000${chain}`) ?? '0';

  const [state] = await db
    .select()
    .from(upstreamLedgerSync)
    .where(eq(upstreamLedgerSync.id, STATE_ID));
  const frontier = state?.frontier ?? undefined;
  let added = 0;
  let newest: string | undefined;
  let oldestOpen: string | undefined;
  // A sync cut short goes on from its next page; then one pass from the frontier, for what
  // was made since it began (pages read twice write nothing twice).
  const passes = state?.resumeCursor ? [state.resumeCursor, undefined] : [undefined];
  for (const start of passes) {
    let cursor = start;
    for (;;) {
      const page = await listPage(
        ctx,
        TransactionListResponse,
        paths.transactions(),
        { createdAtGte: frontier },
        { limit: pageSize, cursor },
      ).catch((error: unknown) => {
        // A resumed cursor the custody API no longer knows: list from the frontier again.
        if (cursor && error instanceof ApiError && error.status === 400) return null;
        throw error;
      });
      if (page === null) {
        cursor = undefined;
        continue;
      }
      const rows = page.results.flatMap((tx) => rowsOf(tx, vaults, priceOf));
      for (const tx of page.results) {
        if (!tx.createdAt) continue;
        if (!newest || tx.createdAt > newest) newest = tx.createdAt;
        if (mayStillSettle(tx) && (!oldestOpen || tx.createdAt < oldestOpen))
          oldestOpen = tx.createdAt;
      }
      cursor = page.hasNext && page.nextCursor ? page.nextCursor : undefined;
      const next = cursor ?? null;
      await db.transaction(async (tx) => {
        if (rows.length > 0)
          added += (
            await tx
              .insert(upstreamLedgerMovements)
              .values(rows)
              .onConflictDoNothing({ target: upstreamLedgerMovements.key })
              .returning({ id: upstreamLedgerMovements.id })
          ).length;
        await saveState(tx, { resumeCursor: next });
      });
      if (!cursor) break;
    }
  }

  return db.transaction(async (tx) => {
    // Two servers on one database: the second waits, then finds the first's movements summed.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('console.upstream_ledger_sync'))`);
    const [current] = await tx
      .select()
      .from(upstreamLedgerSync)
      .where(eq(upstreamLedgerSync.id, STATE_ID));
    const m = upstreamLedgerMovements;
    const sums = await tx
      .select({
        vaultId: m.vaultId,
        asset: m.asset,
        chain: m.chain,
        subOrgId: sql<string | null>`max(${m.subOrgId})`,
        total: sql<string>`sum(${m.amount})::text`,
        first: sql<Date>`min(${m.at})`,
      })
      .from(m)
      .groupBy(m.vaultId, m.asset, m.chain);
    const syncs = current?.syncs ?? 0;
    const opening = !current?.knownFrom;
    const firstAt = sums.reduce<Date | undefined>((min, s) => {
      const at = new Date(s.first);
      return !min || at < min ? at : min;
    }, undefined);
    // The opening is booked just before the oldest movement seen, so it opens every statement.
    const knownFrom = current?.knownFrom ?? (firstAt ? new Date(firstAt.getTime() - 1) : now);
    const seen = new Map(sums.map((s) => [rowKey(s), s]));
    const held = new Map(anchors.map((a) => [rowKey(a), a]));
    const adjustments: (typeof upstreamLedgerMovements.$inferInsert)[] = [];
    for (const key of new Set([...seen.keys(), ...held.keys()])) {
      const s = seen.get(key);
      const a = held.get(key);
      const row = a ?? { vaultId: s?.vaultId ?? '', asset: s?.asset ?? '', chain: s?.chain ?? '' };
      // A vault upstream no longer lists was not read: nothing to compare.
      if (!vaults.has(row.vaultId)) continue;
      const difference = sub(a?.balance ?? '0', s ? s.total : '0');
      if (isZero(difference)) continue;
      adjustments.push({
        vaultId: row.vaultId,
        subOrgId: a?.subOrgId ?? s?.subOrgId ?? vaults.get(row.vaultId) ?? null,
        asset: row.asset,
        chain: row.chain,
        kind: 'ADJUSTMENT',
        amount: difference,
        usdPrice: priceOf(row.asset, row.chain),
        transactionId: null,
        key: `sync:${syncs + 1}:${key.replaceAll('\u0000', ':')}`,
        counterparty: null,
        reference: null,
        memo: opening
          ? 'Opening balance: worked back from the balance read from the custody service, less every movement since'
          : 'Balance read from the custody service beyond the transactions it lists (a reward, a deposit not listed)',
        at: opening ? knownFrom : now,
      });
    }
    if (adjustments.length > 0)
      await tx.insert(upstreamLedgerMovements).values(adjustments).onConflictDoNothing();
    const nextFrontier = oldestOpen ?? newest ?? frontier ?? null;
    await saveState(tx, {
      frontier: nextFrontier,
      resumeCursor: null,
      syncs: syncs + 1,
      knownFrom,
      syncedAt: now,
    });
    return { added, adjustments: adjustments.length, knownFrom, syncedAt: now };
  });
}

function rowsOf(
  tx: Transaction,
  vaults: ReadonlyMap<string, string | null>,
  priceOf: (asset: string, chain: string) => string,
): (typeof upstreamLedgerMovements.$inferInsert)[] {
  if (!tx.id) return [];
  const at = new Date(tx.updatedAt ?? tx.createdAt ?? '');
  if (Number.isNaN(at.getTime())) return [];
  const ours = new Set(vaults.keys());
  return movementsOf(tx, ours).map((m) => ({
    vaultId: m.vaultId,
    subOrgId: vaults.get(m.vaultId) ?? null,
    asset: m.asset,
    chain: m.chain,
    kind: m.kind,
    amount: m.amount,
    usdPrice: priceOf(m.asset, m.chain),
    transactionId: tx.id ?? null,
    key: `tx:${tx.id ?? ''}:${m.seq}`,
    counterparty: m.counterparty,
    reference: tx.externalId ?? null,
    memo: tx.memo ?? null,
    at,
  }));
}

async function saveState(
  db: Pick<Database, 'insert'>,
  patch: Partial<typeof upstreamLedgerSync.$inferInsert>,
) {
  await db
    .insert(upstreamLedgerSync)
    .values({ id: STATE_ID, syncs: 0, ...patch })
    .onConflictDoUpdate({ target: upstreamLedgerSync.id, set: patch });
}

/**
 * The sync's standing, if the ledger has been opened: nothing before
 * `knownFrom` is known; `partial` while a sync cut short has written some
 * of its pages and not yet balanced them against the balances.
 */
export async function syncStanding(db: Database) {
  const [state] = await db
    .select({
      knownFrom: upstreamLedgerSync.knownFrom,
      syncedAt: upstreamLedgerSync.syncedAt,
      resumeCursor: upstreamLedgerSync.resumeCursor,
    })
    .from(upstreamLedgerSync)
    .where(eq(upstreamLedgerSync.id, STATE_ID));
  return state?.knownFrom && state.syncedAt
    ? { knownFrom: state.knownFrom, syncedAt: state.syncedAt, partial: state.resumeCursor !== null }
    : undefined;
}
