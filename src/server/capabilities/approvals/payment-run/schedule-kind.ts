import { inArray } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { add } from '#contract/decimal.ts';
import { describeTiming } from '#contract/payment-run-schedules.ts';
import { inScope } from '../../../custody/context.ts';
import { staff } from '../../../db/schema/console.ts';
import { decidePreApproval, scheduleOfApproval } from '../../payment-runs/schedule/store.ts';
import { decisionsOn } from '../../policies/votes.store.ts';
import { frozenOf, MOVES_NO_MONEY, ruleOf, vaultOf } from '../card/parts.ts';
import type { ApprovableKind, CardContext } from '../core/kind.ts';

/**
 * A payment run schedule's pre-approval, a kind the console holds itself:
 * approving it lets the schedule's occurrences be paid without a vote of
 * their own while they stay within the cap on its card (the most one
 * occurrence may pay in USD, the assets and destinations of its rows, the
 * rows' digest). Its id is the pre-approval's own, a new one for each cap
 * set, so a changed cap is a new item and the approval of the old one counts
 * for nothing.
 */
export const PAYMENT_RUN_SCHEDULE = 'PAYMENT_RUN_SCHEDULE';

const notFound = (id: string) =>
  new ApiError(404, ERROR_CODES.notFound, `No payment run schedule approval with id "${id}"`);

/** The schedule whose pre-approval is `approvalId`, in the member's scope; otherwise null. */
async function scheduleIn(card: CardContext, approvalId: string) {
  const found = await scheduleOfApproval(card.db, approvalId);
  if (!found || !inScope(card.ctx, found.subOrgId)) return null;
  return found;
}

export const paymentRunScheduleKind: ApprovableKind = {
  kind: PAYMENT_RUN_SCHEDULE,
  async loadCard(card, entityId) {
    const schedule = await scheduleIn(card, entityId);
    const pre = schedule?.preApproval;
    if (!schedule || !pre) return null;
    const frozen = await frozenOf(card, entityId, schedule.subOrgId, true);
    const vaultIds = [...new Set(schedule.rows.map((r) => r.sourceVaultId))];
    const totals = new Map<string, { asset: string; blockChain: string; amount: string }>();
    for (const row of schedule.rows) {
      const key = `${row.asset}:${row.blockChain}`;
      const was = totals.get(key);
      totals.set(key, {
        asset: row.asset,
        blockChain: row.blockChain,
        amount: add(was?.amount ?? '0', row.amount),
      });
    }
    // The item is this approval: decided, or replaced by a newer cap, it no longer waits.
    const current = pre.approvalId === entityId;
    return {
      intent: {
        kind: PAYMENT_RUN_SCHEDULE,
        category: PAYMENT_RUN_SCHEDULE,
        source: null,
        destination: null,
        ...MOVES_NO_MONEY,
        rule: await ruleOf(card, frozen.requirement),
        run: {
          name: schedule.name,
          rowCount: schedule.rows.length,
          rowsDigest: pre.rowsDigest,
          sourceVaults: await Promise.all(vaultIds.map((id) => vaultOf(card, id))),
          totals: [...totals.values()],
          // The rule was judged at the cap: the most an occurrence may pay.
          totalUsd: pre.maxTotalUsd,
          fees: [],
          feesUsd: null,
        },
        schedule: {
          timing: describeTiming(schedule.timing),
          maxTotalUsd: pre.maxTotalUsd,
          assets: pre.assets,
          destinations: pre.destinations,
        },
      },
      status: {
        entityId,
        state: current ? pre.status : 'SUPERSEDED',
        createdAt: schedule.createdAt.toISOString(),
        computedAt: card.clock.now().toISOString(),
        amountUsd: pre.maxTotalUsd,
        priceUsd: null,
        feeCeilingUsd: null,
        balances: [],
        quorum: frozen.quorum,
      },
    };
  },
  async stateOf(card, entityId) {
    const schedule = await scheduleIn(card, entityId);
    if (!schedule) throw notFound(entityId);
    const pre = schedule.preApproval;
    return {
      pending:
        pre?.approvalId === entityId &&
        pre.status === 'PENDING' &&
        (schedule.status === 'ACTIVE' || schedule.status === 'PAUSED'),
      subOrgId: schedule.subOrgId,
    };
  },
  async settle(card, entityId, outcome) {
    // Who approved it, by name, as every occurrence paid on it will say.
    const approvers = (await decisionsOn(card.db, entityId)).filter(
      (d) => d.decision === 'APPROVE' && d.actor.kind === 'staff',
    );
    const ids = approvers.map((d) => d.actor.id);
    const named =
      ids.length > 0
        ? await card.db
            .select({ id: staff.id, name: staff.name })
            .from(staff)
            .where(inArray(staff.id, ids))
        : [];
    const names = ids.map((id) => named.find((n) => n.id === id)?.name ?? id);
    if (!(await decidePreApproval(card.db, card.clock.now(), entityId, outcome, names)))
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        'The schedule’s pre-approval no longer waits: its cap was changed or it was decided',
      );
  },
};
