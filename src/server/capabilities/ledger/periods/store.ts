import { createHash } from 'node:crypto';
import { and, desc, eq, ne } from 'drizzle-orm';
import { canonicalJson } from '#contract/approval-card.ts';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { LedgerPeriod, LedgerPeriodClosing } from '#contract/ledger-periods.ts';
import type { Clock } from '../../../clock.ts';
import type { CustodyContext } from '../../../custody/call-context.ts';
import type { Database } from '../../../db/client.ts';
import { ledgerPeriods, staff } from '../../../db/schema/console.ts';
import { movedSince, movementsWatermark } from '../../../custody/sandbox/engine/movements.ts';
import { ledgerSandbox } from '../sandbox/index.ts';
import { monthName, nextMonth } from './month.ts';

/**
 * The ledger's periods as stored (console.ledger_periods), and what a close
 * freezes: per asset the organization's closing balance at the period's end
 * and the digest of its statement of the period.
 */

export type PeriodRow = typeof ledgerPeriods.$inferSelect;

export const LEDGER_PERIOD = 'LEDGER_PERIOD';

/** The held item of a period: its approval card's and page's id. */
export const heldItemIdOf = (id: number) => `ledger-period-${id}`;

export function periodIdOf(entityId: string): number | null {
  const found = /^ledger-period-(\d{1,15})$/.exec(entityId);
  // eslint-disable-next-line no-restricted-syntax -- a row id, at most 15 digits
  return found?.[1] ? Number(found[1]) : null;
}

/** "October 2026 (Europe/Paris)". */
export const periodName = (row: Pick<PeriodRow, 'month' | 'timeZone'>) =>
  `${monthName(row.month)} (${row.timeZone})`;

const STATEMENT_PAGE = 1000;

/**
 * The organization's statement of [from, to), read page by page as any
 * caller reads it: its totals' closings, and SHA-256 over its totals and
 * every line in canonical JSON. The same movements give the same digest; a
 * closed period's, read again later, is the one frozen.
 */
export async function statementFacts(
  db: Database,
  clock: Clock,
  ctx: CustodyContext,
  orgId: string,
  period: { from: Date; to: Date },
): Promise<{ closings: LedgerPeriodClosing[]; digest: string }> {
  const ledger = ledgerSandbox({ db, clock, orgIdFor: () => Promise.resolve(orgId) });
  const hash = createHash('sha256');
  let closings: LedgerPeriodClosing[] | null = null;
  let cursor: string | undefined;
  do {
    const page = await ledger.ledgerStatement(ctx, {
      from: period.from,
      to: period.to,
      page: { limit: STATEMENT_PAGE, cursor },
    });
    if (!closings) {
      hash.update(canonicalJson(page.totals));
      closings = page.totals.map(({ asset, chain, closing }) => ({ asset, chain, closing }));
    }
    for (const line of page.results) hash.update(`\n${canonicalJson(line)}`);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return { closings: closings ?? [], digest: hash.digest('hex') };
}

/**
 * A pending close's card: its statement facts as computed when proposed (or
 * last recomputed), read again only when a movement booked before the
 * month's end was written since (`movedSince`, one indexed probe): a card
 * read costs that probe, not a read of the whole month. The watermark is
 * taken before the facts are read, so the facts cover at least every
 * movement up to it; one written in between only makes the next read
 * recompute. The close itself reads them again under its lock (kind.ts), so
 * what is frozen is always the ledger as it stands.
 */
export async function pendingFacts(
  db: Database,
  clock: Clock,
  ctx: CustodyContext,
  row: PeriodRow,
): Promise<{ closings: LedgerPeriodClosing[]; digest: string }> {
  const cached = row.cardFacts;
  if (cached && !(await movedSince(db, row.orgId, row.to, cached.through)))
    return { closings: cached.closings, digest: cached.digest };
  const through = await movementsWatermark(db, row.orgId);
  const facts = await statementFacts(db, clock, ctx, row.orgId, row);
  await db
    .update(ledgerPeriods)
    .set({ cardFacts: { ...facts, through } })
    .where(and(eq(ledgerPeriods.id, row.id), eq(ledgerPeriods.status, 'PENDING')));
  return facts;
}

export async function periodRow(db: Database, id: number): Promise<PeriodRow | undefined> {
  const [row] = await db.select().from(ledgerPeriods).where(eq(ledgerPeriods.id, id));
  return row;
}

/** The organization's periods not declined, newest first. */
async function livePeriods(db: Database, orgId: string): Promise<PeriodRow[]> {
  return db
    .select()
    .from(ledgerPeriods)
    .where(and(eq(ledgerPeriods.orgId, orgId), ne(ledgerPeriods.status, 'DECLINED')))
    .orderBy(desc(ledgerPeriods.from));
}

/**
 * The organization's reporting zone (every live period's, set by the first
 * proposed), the month a close may be proposed for next and why not when
 * none: months close in order, one at a time, once ended.
 */
export async function closingPlan(
  db: Database,
  orgId: string,
): Promise<{ timeZone: string | null; pending: PeriodRow | null; last: PeriodRow | null }> {
  const live = await livePeriods(db, orgId);
  return {
    timeZone: live[0]?.timeZone ?? null,
    pending: live.find((p) => p.status === 'PENDING') ?? null,
    last: live.find((p) => p.status === 'CLOSED') ?? null,
  };
}

/** The month after the last closed one, or null when none is closed. */
export const monthAfter = (last: PeriodRow | null) => (last ? nextMonth(last.month) : null);

export async function listPeriods(db: Database, orgId: string): Promise<LedgerPeriod[]> {
  const rows = await db
    .select({ period: ledgerPeriods, proposer: staff.name })
    .from(ledgerPeriods)
    .leftJoin(staff, eq(staff.id, ledgerPeriods.proposedBy))
    .where(eq(ledgerPeriods.orgId, orgId))
    .orderBy(desc(ledgerPeriods.from), desc(ledgerPeriods.id));
  return rows.map((r) => periodOnWire(r.period, r.proposer));
}

export function periodOnWire(row: PeriodRow, proposer: string | null): LedgerPeriod {
  return {
    id: String(row.id),
    month: row.month,
    timeZone: row.timeZone,
    from: row.from.toISOString(),
    to: row.to.toISOString(),
    status: row.status,
    heldItemId: heldItemIdOf(row.id),
    proposedBy: proposer,
    proposedAt: row.proposedAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    closings: row.closings ?? null,
    digest: row.digest ?? null,
  };
}

export const periodNotFound = () =>
  new ApiError(404, ERROR_CODES.notFound, 'No ledger period with that id');
