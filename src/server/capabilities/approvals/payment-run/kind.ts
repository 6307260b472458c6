import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { inScope } from '../../../custody/context.ts';
import { loadRunRecord, moveRun, runSources } from '../../payment-runs/store.ts';
import { frozenOf, MOVES_NO_MONEY, ruleOf, vaultOf } from '../card/parts.ts';
import type { ApprovableKind, CardContext } from '../core/kind.ts';

/**
 * A payment run, approved once for all its rows: a kind the console holds
 * itself (the custody API has no runs). Its card binds the rows' digest, so
 * a row edited after a vote changes the card and the vote stops counting
 * (the core's `voidChangedVotes`); approving it moves the run to APPROVED,
 * where the executor takes it up.
 */
export const PAYMENT_RUN = 'PAYMENT_RUN';

const notFound = (id: string) =>
  new ApiError(404, ERROR_CODES.notFound, `No payment run with id "${id}"`);

/**
 * The run's record in the member's scope (outside it, as unknown: null). Its
 * rows are not read: a decision needs the run's status, errors and digest,
 * and the card its source vaults and row count, not 1,000 rows read again at
 * each step of one approval.
 */
async function runIn(card: CardContext, id: string) {
  const run = await loadRunRecord(card.db, id);
  if (!run || !inScope(card.ctx, run.subOrgId)) return null;
  return run;
}

export const paymentRunKind: ApprovableKind = {
  kind: PAYMENT_RUN,
  async loadCard(card, entityId) {
    const run = await runIn(card, entityId);
    if (!run) return null;
    const frozen = await frozenOf(card, entityId, run.subOrgId, true);
    const { vaultIds, rowCount } = await runSources(card.db, entityId);
    const sim = run.simulation;
    return {
      intent: {
        kind: 'PAYMENT_RUN',
        category: 'PAYMENT_RUN',
        source: null,
        destination: null,
        ...MOVES_NO_MONEY,
        rule: await ruleOf(card, frozen.requirement),
        run: {
          name: run.name,
          rowCount,
          rowsDigest: run.rowsDigest,
          sourceVaults: await Promise.all(vaultIds.map((id) => vaultOf(card, id))),
          totals: sim?.totals ?? [],
          totalUsd: sim?.totalUsd ?? null,
          fees: (sim?.fees ?? []).map((f) => ({
            asset: f.asset,
            blockChain: f.blockChain,
            amount: f.amount,
          })),
          feesUsd: sim?.feesUsd ?? null,
        },
      },
      status: {
        entityId,
        // The card speaks the approval's words, as every held kind's does: PENDING while
        // the decision waits (the run's own PENDING_APPROVAL is its page's word), so the
        // held item's page offers Approve and Decline.
        state: run.status === 'PENDING_APPROVAL' ? 'PENDING' : run.status,
        createdAt: run.createdAt.toISOString(),
        computedAt: card.clock.now().toISOString(),
        amountUsd: sim?.totalUsd ?? null,
        priceUsd: null,
        feeCeilingUsd: sim?.feesUsd ?? null,
        balances: [],
        quorum: frozen.quorum,
      },
    };
  },
  async stateOf(card, entityId) {
    const run = await runIn(card, entityId);
    if (!run) throw notFound(entityId);
    return { pending: run.status === 'PENDING_APPROVAL', subOrgId: run.subOrgId };
  },
  async settle(card, entityId, outcome) {
    const run = await runIn(card, entityId);
    if (!run) throw notFound(entityId);
    if (outcome === 'APPROVED' && run.errors.length > 0)
      // A row edited while it waited and not yet fixed: nothing with an error is ever sent.
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        `The run has ${run.errors.length} check errors: fix its rows before it is approved`,
      );
    const moved = await moveRun(
      card.db,
      card.clock.now(),
      entityId,
      ['PENDING_APPROVAL'],
      outcome === 'APPROVED' ? 'APPROVED' : 'DECLINED',
    );
    if (!moved)
      throw new ApiError(409, ERROR_CODES.conflict, 'The run no longer waits for approval');
  },
};
