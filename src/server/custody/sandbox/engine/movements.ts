import { and, asc, desc, eq, gt, lt, max, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { add, cmp, isNegative, isZero, neg, sub } from '#contract/decimal.ts';
import type { LedgerMovementKind } from '#contract/ledger.ts';
import type { Party } from '#contract/transaction.ts';
import { ledgerPeriods } from '../../../db/schema/console.ts';
import { assets, ledgerDays, ledgerMovements } from '../../../db/schema/sandbox.ts';
import type { Executor } from './transitions.ts';

/**
 * The ledger's movements as the sandbox makes them: every change a step
 * makes to a vault's balance becomes one append-only row, written by
 * `moveBalances` in the same database transaction, after the balance row it
 * changes (so under that row's lock). A fee is a movement of its own, split
 * from the change that carried it when a change carries amount and fee
 * together (a swap debits both in one change).
 */

/** The asset's sandbox price, read by the insert itself. */
const priceOf = (m: { asset: string; chain: string }) =>
  sql`coalesce((select ${assets.usdPrice} from ${assets} where ${assets.symbol} = ${m.asset} and ${assets.blockChain} = ${m.chain}), 0)`;

/** The advisory lock's first key (the second is a hash of the organization's id); any constant every server shares. */
const LEDGER_CLOSE_LOCK = 0x6c656467; // "ledg"

/**
 * The first instant of the organization's ledger still open: a movement
 * dated before it belongs to a closed period, whose movements never change,
 * so it is booked at this instant instead (the start of the next open
 * period), keeping when it happened in `valueAt`. Every writer holds the
 * organization's close lock shared, and a close holds it exclusively
 * (`lockLedgerForClose`), so a close waits for every movement being written
 * and no movement is written with a boundary a close is moving.
 */
async function openFrom(db: Executor, orgId: string): Promise<Date | null> {
  await db.execute(
    sql`select pg_advisory_xact_lock_shared(${LEDGER_CLOSE_LOCK}, hashtext(${orgId}))`,
  );
  const [row] = await db
    .select({ to: max(ledgerPeriods.to) })
    .from(ledgerPeriods)
    .where(and(eq(ledgerPeriods.orgId, orgId), eq(ledgerPeriods.status, 'CLOSED')));
  return row?.to ?? null;
}

/** When a movement that happened at `at` is booked, and its `valueAt` (null when booked as it happened). */
function booking(at: Date, open: Date | null): { at: Date; valueAt: Date | null } {
  return open && at.getTime() < open.getTime() ? { at: open, valueAt: at } : { at, valueAt: null };
}

/** Held by a close, in its transaction, before it reads what it freezes: see `openFrom`. */
export async function lockLedgerForClose(db: Executor, orgId: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${LEDGER_CLOSE_LOCK}, hashtext(${orgId}))`);
}

/**
 * The organization's last movement's id, read under the close lock: every
 * writer inserts holding the lock shared, so once it is held exclusively no
 * movement is half-written, and every movement written later has a larger
 * id. So "nothing booked before `to` has an id past this" (`movedSince`)
 * means nothing booked before `to` changed since it was read.
 */
export async function movementsWatermark(db: Database, orgId: string): Promise<number> {
  return db.transaction(async (tx) => {
    await lockLedgerForClose(tx, orgId);
    const [last] = await tx
      .select({ id: ledgerMovements.id })
      .from(ledgerMovements)
      .where(eq(ledgerMovements.orgId, orgId))
      .orderBy(desc(ledgerMovements.id))
      .limit(1);
    return last?.id ?? 0;
  });
}

/** Whether a movement booked before `to` was written after `watermark` (movementsWatermark). */
export async function movedSince(
  db: Executor,
  orgId: string,
  to: Date,
  watermark: number,
): Promise<boolean> {
  const [found] = await db
    .select({ id: ledgerMovements.id })
    .from(ledgerMovements)
    .where(
      and(
        gt(ledgerMovements.id, watermark),
        eq(ledgerMovements.orgId, orgId),
        lt(ledgerMovements.at, to),
      ),
    )
    .orderBy(asc(ledgerMovements.id))
    .limit(1);
  return found !== undefined;
}

/** What moved the balances: the transaction, its parties, its fee. */
export interface MovementSource {
  transactionId: string | null;
  /** The transaction's externalId. */
  reference: string | null;
  memo: string | null;
  source?: Party | null | undefined;
  destination?: Party | null | undefined;
  /** The fee the changes carry (a positive amount), recorded as a FEE movement of its own. */
  fee?: { party: Party; asset: string; chain: string; amount: string } | undefined;
  /** What the changes other than the fee are: AMOUNT unless said. */
  kind?: Exclude<LedgerMovementKind, 'FEE'>;
}

/** A transaction row's part of its movements. */
export function movementSourceOf(
  row: {
    id: string;
    externalId: string | null;
    memo: string | null;
    source: Party | null;
    destination: Party | null;
  },
  fee?: MovementSource['fee'],
): MovementSource {
  return {
    transactionId: row.id,
    reference: row.externalId,
    memo: row.memo,
    source: row.source,
    destination: row.destination,
    fee,
  };
}

export interface PlannedMovement {
  vaultId: string;
  asset: string;
  chain: string;
  amount: string;
  kind: LedgerMovementKind;
  counterparty: Party | null;
}

/** A balance row's key, as `moveBalances` keys its rows. */
export const rowKey = (m: { vaultId: string; asset: string; chain: string }) =>
  `${m.vaultId}\u0000${m.asset}\u0000${m.chain}`;

/**
 * The movements of `changes` (already only those on the organization's
 * vaults, in their order), the fee split out. Pure: `moveBalances` writes
 * them once the balance rows are moved.
 */
export function planMovements(
  changes: readonly { vaultId: string; asset: string; chain: string; amount: string }[],
  from: MovementSource,
): PlannedMovement[] {
  const kind = from.kind ?? 'AMOUNT';
  const planned: PlannedMovement[] = changes
    .filter((c) => !isZero(c.amount))
    .map((c) => ({
      ...c,
      kind,
      counterparty: (isNegative(c.amount) ? from.destination : from.source) ?? null,
    }));
  const fee = from.fee;
  if (!fee || isZero(fee.amount) || fee.party.type !== 'VAULT' || !fee.party.id) return planned;
  const feeRow = rowKey({ vaultId: fee.party.id, asset: fee.asset, chain: fee.chain });
  const onFeeRow = (m: PlannedMovement) => rowKey(m) === feeRow && isNegative(m.amount);
  // A change of exactly the fee is the fee (settle writes it as a change of its own).
  const exact = planned.findLastIndex((m) => onFeeRow(m) && cmp(m.amount, neg(fee.amount)) === 0);
  if (exact >= 0) {
    const found = planned[exact];
    if (found) planned[exact] = { ...found, kind: 'FEE', counterparty: null };
    return planned;
  }
  // Otherwise the first debit larger than the fee carried it: split it in two.
  const carrier = planned.findIndex((m) => onFeeRow(m) && cmp(m.amount, neg(fee.amount)) < 0);
  const found = planned[carrier];
  if (!found) return planned;
  planned.splice(
    carrier,
    1,
    { ...found, amount: add(found.amount, fee.amount) },
    { ...found, amount: neg(fee.amount), kind: 'FEE', counterparty: null },
  );
  return planned;
}

/** One step's movements, as `recordMovements` takes them. */
export interface MovementStep {
  at: Date;
  from: MovementSource;
  movements: readonly PlannedMovement[];
  /** Each balance row's amount after the step: see `recordMovements`. */
  finalAmount: ReadonlyMap<string, string>;
}

/**
 * Writes the movements, each with the balance right after it: `finalAmount`
 * is each balance row's amount after the step's one update, from which the
 * row's movements are walked back in order. The asset's USD price is read
 * by the insert itself (one statement).
 */
export async function recordMovements(
  db: Executor,
  at: Date,
  input: {
    orgId: string;
    from: MovementSource;
    movements: readonly PlannedMovement[];
    finalAmount: ReadonlyMap<string, string>;
  },
): Promise<void> {
  await recordMovementSteps(db, input.orgId, [{ at, ...input }]);
}

/**
 * `recordMovements` for many steps, oldest first, in a few statements: what
 * a step writes, steps that already happened write together (the seed's
 * past, ledger-past.ts).
 */
export async function recordMovementSteps(
  db: Executor,
  orgId: string,
  steps: readonly MovementStep[],
): Promise<void> {
  const rows = steps.flatMap((step) => stepRows(orgId, step));
  if (rows.length === 0) return;
  const open = await openFrom(db, orgId);
  const written: DayMovement[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const chunk = rows
      .slice(i, i + 500)
      .map(({ at, ...row }) => ({ ...row, ...booking(at, open) }));
    written.push(...(await db.insert(ledgerMovements).values(chunk).returning(dayColumns)));
  }
  await addToDays(db, orgId, written);
}

/** A step's rows, each with the balance after it, walked back from the step's final amounts. */
function stepRows(orgId: string, step: MovementStep) {
  const after = new Map<string, string>();
  const balanceAfter: string[] = new Array<string>(step.movements.length);
  for (let i = step.movements.length - 1; i >= 0; i -= 1) {
    const m = step.movements[i];
    if (!m) continue;
    const key = rowKey(m);
    const current = after.get(key) ?? step.finalAmount.get(key);
    if (current === undefined) throw new Error(`movement on ${key} without its balance row`);
    balanceAfter[i] = current;
    after.set(key, sub(current, m.amount));
  }
  return step.movements.map((m, i) => ({
    orgId,
    vaultId: m.vaultId,
    asset: m.asset,
    chain: m.chain,
    kind: m.kind,
    amount: m.amount,
    balanceAfter: balanceAfter[i] ?? '0',
    usdPrice: priceOf(m),
    transactionId: step.from.transactionId,
    counterparty: m.counterparty,
    reference: step.from.reference,
    memo: step.from.memo,
    at: step.at,
  }));
}

/**
 * Balances the ledger did not see arrive (a seeded or a test vault's
 * starting funds) open its ledger as ADJUSTMENT movements, so a balance is
 * still the sum of its movements. Call once the assets are in (their price).
 */
export async function recordOpeningBalances(
  db: Executor,
  orgId: string,
  balances: readonly { vaultId: string; asset: string; chain: string; amount: string; at: Date }[],
): Promise<void> {
  const rows = balances.filter((b) => !isZero(b.amount));
  const open = rows.length > 0 ? await openFrom(db, orgId) : null;
  for (let i = 0; i < rows.length; i += 500) {
    const written = await db
      .insert(ledgerMovements)
      .values(
        rows.slice(i, i + 500).map((b) => ({
          orgId,
          vaultId: b.vaultId,
          asset: b.asset,
          chain: b.chain,
          kind: 'ADJUSTMENT' as const,
          amount: b.amount,
          balanceAfter: b.amount,
          usdPrice: priceOf(b),
          transactionId: null,
          counterparty: null,
          reference: null,
          memo: 'opening balance',
          ...booking(b.at, open),
        })),
      )
      .returning(dayColumns);
    await addToDays(db, orgId, written);
  }
}

/** What a movement adds to its day's summary, as the insert answers it. */
const dayColumns = {
  id: ledgerMovements.id,
  vaultId: ledgerMovements.vaultId,
  asset: ledgerMovements.asset,
  chain: ledgerMovements.chain,
  kind: ledgerMovements.kind,
  amount: ledgerMovements.amount,
  usdPrice: ledgerMovements.usdPrice,
  at: ledgerMovements.at,
};

type DayMovement = {
  id: number;
  vaultId: string;
  asset: string;
  chain: string;
  kind: LedgerMovementKind;
  amount: string;
  usdPrice: string;
  at: Date;
};

/** One vault, asset, chain and UTC day's share of some movements. */
export interface DayShare {
  vaultId: string;
  asset: string;
  chain: string;
  /** `YYYY-MM-DD`, UTC. */
  day: string;
  amounts: string;
  /** Positive. */
  fees: string;
  lastPrice: string;
  lastAt: Date;
  movements: number;
}

/** Movements summed per vault, asset, chain and UTC day, pure; the last price is the latest movement's. */
export function dayShares(movements: readonly DayMovement[]): DayShare[] {
  const shares = new Map<string, DayShare & { lastId: number }>();
  for (const m of movements) {
    const day = m.at.toISOString().slice(0, 10);
    const key = `${rowKey(m)}\u0000${day}`;
    const share = shares.get(key) ?? {
      vaultId: m.vaultId,
      asset: m.asset,
      chain: m.chain,
      day,
      amounts: '0',
      fees: '0',
      lastPrice: m.usdPrice,
      lastAt: m.at,
      lastId: m.id,
      movements: 0,
    };
    if (m.kind === 'FEE') share.fees = sub(share.fees, m.amount);
    else share.amounts = add(share.amounts, m.amount);
    share.movements += 1;
    const later = m.at.getTime() - share.lastAt.getTime();
    if (later > 0 || (later === 0 && m.id >= share.lastId))
      Object.assign(share, { lastPrice: m.usdPrice, lastAt: m.at, lastId: m.id });
    shares.set(key, share);
  }
  return [...shares.values()].map(({ lastId: _lastId, ...share }) => share);
}

/**
 * Adds movements to their days' summaries, in the caller's transaction. A
 * day's closing is the closing of the day before it plus the day's net; a
 * movement dated before a day already summed (an opening balance, a late
 * arrival) also moves the closing of every later day. The movements of one
 * balance row are written under that row's lock, so its days are too: the
 * row's last day, read first, stays its last while they are written.
 *
 * The usual case, every day of a row on or after its last day summed, is
 * one statement for all of them, their closings worked out from that last
 * day's; a row with a day before it takes the two statements a day (update
 * the later days, then insert or add to its own).
 */
async function addToDays(db: Executor, orgId: string, movements: readonly DayMovement[]) {
  const shares = dayShares(movements).sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0));
  if (shares.length === 0) return;
  const last = await lastDays(db, shares);
  const early = new Set(
    shares.filter((d) => d.day < (last.get(rowKey(d))?.day ?? '')).map((d) => rowKey(d)),
  );
  const closing = new Map<string, string>();
  const appended: (typeof ledgerDays.$inferInsert)[] = [];
  for (const d of shares) {
    const key = rowKey(d);
    if (early.has(key)) {
      await addToDay(db, orgId, d);
      continue;
    }
    const closed = add(closing.get(key) ?? last.get(key)?.closing ?? '0', sub(d.amounts, d.fees));
    closing.set(key, closed);
    appended.push({ orgId, ...d, closing: closed });
  }
  for (let i = 0; i < appended.length; i += 500) {
    await db
      .insert(ledgerDays)
      .values(appended.slice(i, i + 500))
      .onConflictDoUpdate({
        target: [ledgerDays.vaultId, ledgerDays.asset, ledgerDays.chain, ledgerDays.day],
        // Only the row's last day can be there: its closing plus the day's net, as worked out.
        set: { ...addedToDay, closing: sql`excluded.closing` },
      });
  }
}

/** What a day's share adds to a day already summed, but its closing. */
const addedToDay = {
  amounts: sql`${ledgerDays.amounts} + excluded.amounts`,
  fees: sql`${ledgerDays.fees} + excluded.fees`,
  lastPrice: sql`case when excluded.last_at >= ${ledgerDays.lastAt} then excluded.last_price else ${ledgerDays.lastPrice} end`,
  lastAt: sql`greatest(${ledgerDays.lastAt}, excluded.last_at)`,
  movements: sql`${ledgerDays.movements} + excluded.movements`,
};

/** Each balance row's last day summed and its closing, one indexed probe a row, in one statement. */
async function lastDays(
  db: Executor,
  rows: readonly { vaultId: string; asset: string; chain: string }[],
): Promise<Map<string, { day: string; closing: string }>> {
  const keys = new Map(rows.map((r) => [rowKey(r), r]));
  const found = new Map<string, { day: string; closing: string }>();
  const all = [...keys.values()];
  for (let i = 0; i < all.length; i += 200) {
    const probes = all.slice(i, i + 200).map(
      (r) => sql`(select ${ledgerDays.vaultId} as vault_id, ${ledgerDays.asset} as asset,
        ${ledgerDays.chain} as chain, ${ledgerDays.day}::text as day, ${ledgerDays.closing}::text as closing
        from ${ledgerDays}
        where ${ledgerDays.vaultId} = ${r.vaultId} and ${ledgerDays.asset} = ${r.asset} and ${ledgerDays.chain} = ${r.chain}
        order by ${ledgerDays.day} desc limit 1)`,
    );
    const result = (await db.execute(sql.join(probes, sql` union all `))) as unknown as {
      rows: { vault_id: string; asset: string; chain: string; day: string; closing: string }[];
    };
    for (const r of result.rows)
      found.set(rowKey({ vaultId: r.vault_id, asset: r.asset, chain: r.chain }), {
        day: r.day,
        closing: r.closing,
      });
  }
  return found;
}

/** One day's share of a row with days after it: the later days move, then its own is added. */
async function addToDay(db: Executor, orgId: string, d: DayShare) {
  const net = sub(d.amounts, d.fees);
  const same = and(
    eq(ledgerDays.vaultId, d.vaultId),
    eq(ledgerDays.asset, d.asset),
    eq(ledgerDays.chain, d.chain),
  );
  await db
    .update(ledgerDays)
    .set({ closing: sql`${ledgerDays.closing} + ${net}::numeric` })
    .where(and(same, gt(ledgerDays.day, d.day)));
  const before = sql`coalesce((select ${ledgerDays.closing} from ${ledgerDays} where ${same} and ${ledgerDays.day} < ${d.day} order by ${ledgerDays.day} desc limit 1), 0)`;
  await db
    .insert(ledgerDays)
    .values({ orgId, ...d, closing: sql`${before} + ${net}::numeric` })
    .onConflictDoUpdate({
      target: [ledgerDays.vaultId, ledgerDays.asset, ledgerDays.chain, ledgerDays.day],
      set: { ...addedToDay, closing: sql`${ledgerDays.closing} + ${net}::numeric` },
    });
}
