import { eq } from 'drizzle-orm';
import type { ApprovalCard, CardChangeLine } from '#contract/approval-card.ts';
import { ApiError } from '#contract/api-error.ts';
import { roleAllows } from '#contract/auth.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { Clock } from '../../../clock.ts';
import type { CustodyContext } from '../../../custody/call-context.ts';
import { lockLedgerForClose } from '../../../custody/sandbox/engine/movements.ts';
import type { Database } from '../../../db/client.ts';
import { ledgerPeriods, staff } from '../../../db/schema/console.ts';
import { frozenOf, MOVES_NO_MONEY, namedDestination, ruleOf } from '../../approvals/card/parts.ts';
import type { ApprovableKind, CardContext } from '../../approvals/core/kind.ts';
import { oneAdminRule, proposeHeld } from '../../approvals/core/propose.ts';
import {
  closingPlan,
  heldItemIdOf,
  LEDGER_PERIOD,
  periodIdOf,
  periodName,
  periodNotFound,
  pendingFacts,
  periodRow,
  statementFacts,
  type PeriodRow,
} from './store.ts';

/**
 * Closing a month of the ledger as an approvable kind the console holds
 * (ARCHITECTURE.md, "Approvable kinds"): each proposal is an item,
 * `ledger-period-<id>`, decided by one admin of the whole organization who
 * is not the proposer nor linked to them. Its card is the period and, per
 * asset, the organization's closing balance and the digest of its statement
 * of the month, read as they stand while it waits (a late movement dated in
 * the month changes the card, and a vote on the old card stops counting).
 * Approved, the close freezes them under the organization's close lock, in
 * the transaction that marks it decided: from then on the sandbox books
 * anything dated inside the month at the start of the next open one.
 */

/** One admin of the whole organization, never the proposer nor an account linked to them. */
function requirementOf(proposer: { id: string; name: string; createdBy: string | null }) {
  const requirement = oneAdminRule('Ledger closes', {
    excluded: [proposer.id],
    unlinkedFrom: [proposer],
    // A month's books are the whole organization's: only an admin of all of it closes one.
    subOrgIds: null,
  });
  return requirement;
}

/** Files the proposal and has the core hold it: its rule frozen, the browsers told. One transaction. */
export async function proposeClose(
  db: Database,
  clock: Clock,
  input: Pick<PeriodRow, 'orgId' | 'month' | 'timeZone' | 'from' | 'to'>,
  proposer: { id: string; name: string; role: 'admin'; createdBy: string | null },
  ctx: CustodyContext,
): Promise<PeriodRow> {
  const row = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(ledgerPeriods)
      .values({
        ...input,
        status: 'PENDING',
        proposedBy: proposer.id,
        proposedAt: clock.now(),
      })
      .returning();
    if (!row) throw new Error('proposeClose: nothing inserted');
    await proposeHeld(tx, clock, {
      kind: ledgerPeriodKind,
      entityId: heldItemIdOf(row.id),
      subOrgId: null,
      requirement: requirementOf(proposer),
      initiator: { kind: 'staff', id: proposer.id, role: proposer.role },
    });
    return row;
  });
  // Its card's facts, computed once now rather than on the first reader's time.
  await pendingFacts(db, clock, ctx, row);
  return row;
}

/** The period, when the member asking is an admin of the whole organization. */
async function visible(card: CardContext, entityId: string): Promise<PeriodRow | null> {
  const id = periodIdOf(entityId);
  if (id === null || !card.memberId) return null;
  const [asking] = await card.db
    .select({ role: staff.role, subOrgIds: staff.subOrgIds })
    .from(staff)
    .where(eq(staff.id, card.memberId));
  if (!asking || !roleAllows(asking.role, 'admin') || asking.subOrgIds) return null;
  return (await periodRow(card.db, id)) ?? null;
}

/** What the close freezes: as frozen once closed, else as the ledger stands now. */
async function factsOf(card: CardContext, row: PeriodRow) {
  if (row.status === 'CLOSED' && row.closings && row.digest)
    return { closings: row.closings, digest: row.digest };
  return pendingFacts(card.db, card.clock, card.ctx, row);
}

async function cardOf(card: CardContext, entityId: string, row: PeriodRow): Promise<ApprovalCard> {
  const frozen = await frozenOf(card, entityId, null, true);
  const facts = await factsOf(card, row);
  const lines: CardChangeLine[] = [
    {
      label: 'Period',
      before: null,
      after: `${row.from.toISOString()} to ${row.to.toISOString()} (${row.timeZone})`,
    },
    ...facts.closings.map((c) => ({
      label: `Closing balance, ${c.asset} on ${c.chain}`,
      before: null,
      after: c.closing,
    })),
    { label: 'Statement digest (SHA-256)', before: null, after: facts.digest },
  ];
  return {
    intent: {
      kind: LEDGER_PERIOD,
      category: 'LEDGER_CLOSE',
      source: null,
      destination: namedDestination('LEDGER_PERIOD', row.month, periodName(row), true),
      ...MOVES_NO_MONEY,
      rule: await ruleOf(card, frozen.requirement),
      change: {
        summary: `Close the ledger for ${periodName(row)}: its statements never change again, and anything dated in it that arrives later is booked in the next open month`,
        lines,
      },
    },
    status: {
      entityId,
      state: row.status,
      createdAt: row.proposedAt.toISOString(),
      computedAt: card.clock.now().toISOString(),
      amountUsd: null,
      priceUsd: null,
      feeCeilingUsd: null,
      balances: [],
      quorum: frozen.quorum,
    },
  };
}

/** The close itself, under the close lock: months close in order, so the last closed ends where it starts. */
async function close(db: Database, clock: Clock, ctx: CustodyContext, row: PeriodRow) {
  await lockLedgerForClose(db, row.orgId);
  const { last } = await closingPlan(db, row.orgId);
  if (last && last.to.getTime() !== row.from.getTime())
    throw new ApiError(
      409,
      ERROR_CODES.conflict,
      `${periodName(row)} does not follow the last closed month, ${periodName(last)}`,
    );
  return statementFacts(db, clock, ctx, row.orgId, row);
}

export const ledgerPeriodKind: ApprovableKind = {
  kind: LEDGER_PERIOD,
  async loadCard(card, entityId) {
    const row = await visible(card, entityId);
    return row ? cardOf(card, entityId, row) : null;
  },
  async stateOf(card, entityId) {
    const row = await visible(card, entityId);
    if (!row) throw periodNotFound();
    return { pending: row.status === 'PENDING', subOrgId: null };
  },
  async settle(card, entityId, outcome) {
    const id = periodIdOf(entityId);
    const [row] =
      id === null
        ? []
        : await card.db.select().from(ledgerPeriods).where(eq(ledgerPeriods.id, id)).for('update');
    if (!row) throw periodNotFound();
    if (row.status !== 'PENDING')
      throw new ApiError(409, ERROR_CODES.alreadyDecided, 'This close was already decided');
    const now = card.clock.now();
    const facts =
      outcome === 'APPROVED' ? await close(card.db, card.clock, card.ctx, row) : undefined;
    await card.db
      .update(ledgerPeriods)
      .set({
        status: outcome === 'APPROVED' ? 'CLOSED' : 'DECLINED',
        decidedBy: card.memberId,
        decidedAt: now,
        ...(facts ?? {}),
      })
      .where(eq(ledgerPeriods.id, row.id));
  },
};
