import type { Context } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import type { ApprovalActionRequest, ApprovalActionResponse } from '#contract/approvals.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { custodyContext } from '../../../custody/context.ts';
import type { AppEnv } from '../../../http/app-env.ts';
import { raiseApprovalEvent } from '../../live/approval-source.ts';
import {
  decidedAlready,
  decisionRecorded,
  policyActor,
  progressOf,
  refuseUnlessEligible,
} from '../../policies/guard.ts';
import {
  initiatorOf,
  markSent,
  recordVote,
  releaseClaim,
  requirementOf,
} from '../../policies/votes.store.ts';
import { currentIntentOf } from '../card/card.ts';
import {
  checkDecision,
  decisionRefused,
  storeDecided,
  type SigningOptions,
} from '../signing/signed-decision.ts';
import type { CardContext, SettledEffect } from './kind.ts';

/**
 * The core's decision on an item of a kind the console holds itself (a kind
 * with `settle`: no change request at the custody backend), made exactly as
 * every kind's is: the card the member was shown and, where they must sign,
 * their passkey's assertion over it (signing/); the frozen rule's verdict on
 * who decides; their vote counted under the item's lock (a vote on a card
 * that changed stops counting first); the kind's effect run once, by the one
 * request that settles it; the signature stored only once the decision
 * stands; the live events; and the audit row the route declares.
 */

const notHeld = () =>
  new ApiError(404, ERROR_CODES.notFound, 'No item waiting for a decision with that id');

/** POST /api/console/approvables/{entityId}/decision/ */
export async function decideHeld(
  options: SigningOptions,
  c: Context<AppEnv>,
  entityId: string,
  request: ApprovalActionRequest,
): Promise<ApprovalActionResponse> {
  const member = c.get('staff');
  if (!member) throw new ApiError(401, ERROR_CODES.unauthorized, 'Sign in to decide');
  const { db, clock } = options.auth;
  const row = await requirementOf(db, entityId);
  const kind = row ? options.kinds.find((k) => k.kind === row.entityType) : undefined;
  if (!row || !kind?.settle) throw notHeld();
  const settle = kind.settle.bind(kind);
  const ctx = custodyContext(c);
  const card: CardContext = { backend: options.backend, ctx, db, clock, memberId: member.id };

  // In the member's scope (the kind's read is a 404 outside it) before anything is kept.
  const state = await kind.stateOf(card, entityId);
  const { requirement } = row;
  if (!state.pending) throw decidedAlready(row.entityType, entityId, requirement.ruleName);
  const actor = await policyActor(db, ctx);
  refuseUnlessEligible(requirement, initiatorOf(row), actor);
  // The card shown and, where the member must sign, the assertion over it: before any vote.
  const checked = await checkDecision(options, c, member.id, entityId, request);

  const current = await currentIntentOf(card, entityId, options.kinds);
  const decision = request.action === 'approve' ? 'APPROVE' : 'DECLINE';
  const result = await recordVote(
    db,
    entityId,
    { actor, decision, reason: request.reason, subOrgId: state.subOrgId },
    clock.now(),
    current ? { current } : {},
  );
  if (result.earlier) throw decisionRecorded(requirement.ruleName, result.tally, result.earlier);
  const progress = progressOf(requirement, result.tally);

  if (result.claimedAt) {
    const outcome = result.tally.state === 'APPROVED' ? 'APPROVED' : 'DECLINED';
    const status = outcome === 'APPROVED' ? 'APPROVED' : 'REJECTED';
    let effect: void | SettledEffect;
    try {
      // The effect (the kind writes through the database it is handed), the item marked
      // decided, its live event and the signature it was decided with: one transaction, so
      // a crash part-way keeps none of them, never an effect without its signature.
      effect = await db.transaction(async (tx) => {
        const done = await settle({ ...card, db: tx }, entityId, outcome);
        await markSent(tx, entityId, clock.now());
        await raiseApprovalEvent(
          tx,
          { kind: 'DECIDED', entityType: kind.kind, entityId, subOrgId: state.subOrgId, status },
          clock,
        );
        await storeDecided(
          { ...options, auth: { ...options.auth, db: tx } },
          member,
          checked,
          request.action,
        );
        return done;
      });
    } catch (error) {
      // The effect refused: this decision did not stand, and the item waits again. Anything
      // else keeps the vote for the quorum to settle again.
      await releaseClaim(
        db,
        entityId,
        result.claimedAt,
        decisionRefused(error) ? { actor, subOrgId: state.subOrgId, at: clock.now() } : null,
      );
      throw error;
    }
    effect?.afterCommit(options.auth);
    return { success: true, status, id: entityId, entityId, policy: progress };
  }
  if (result.tally.state !== 'PENDING')
    // Settled by the others' decisions: this one came after and counts for nothing.
    throw decidedAlready(row.entityType, entityId, requirement.ruleName);
  await storeDecided(options, member, checked, request.action);
  return { success: true, status: 'PENDING', id: entityId, entityId, policy: progress };
}
