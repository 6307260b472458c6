import { randomUUID } from 'node:crypto';
import type { ApprovalCard } from '#contract/approval-card.ts';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { FrozenRequirement } from '#contract/policies.ts';
import { frozenOf, ruleOf } from '../../capabilities/approvals/card/parts.ts';
import type { ApprovableKind } from '../../capabilities/approvals/core/kind.ts';
import { proposeHeld } from '../../capabilities/approvals/core/propose.ts';
import type { Clock } from '../../clock.ts';
import { inScope } from '../../console/scope-rules.ts';
import type { Database } from '../../db/client.ts';

/**
 * A test-only approvable kind, declared in this one folder: a payout the
 * console holds itself. It says how to load its card, whether a payout still
 * waits and where it belongs, and what approving or declining it does; the
 * card's route, the signed intent, votes and quorum, the live events and the
 * audit come from the approval core.
 */

export const PAYOUT = 'TEST_PAYOUT';

interface Payout {
  id: string;
  subOrgId: string | null;
  payee: string;
  amount: string;
  status: 'PENDING' | 'APPROVED' | 'DECLINED';
  /** How many times its effect ran: the core runs it once. */
  settled: number;
}

/** Two approvals by approvers or admins, never the proposer's. */
const twoApprovers: FrozenRequirement = {
  policyVersion: 0,
  ruleId: 'test-payouts',
  ruleName: 'Test payouts',
  outcome: {
    action: 'ALLOW',
    approvals: 2,
    approvers: { kinds: ['approver', 'admin'], memberIds: [] },
    apiClientMayApproveOwn: false,
  },
};

export function payoutKind() {
  const payouts = new Map<string, Payout>();

  /** A payout in the member's scope: outside it, as unknown, a 404. */
  const read = (ctx: Parameters<typeof inScope>[0], id: string): Payout => {
    const payout = payouts.get(id);
    if (!payout || !inScope(ctx, payout.subOrgId))
      throw new ApiError(404, ERROR_CODES.notFound, `No payout with id "${id}"`);
    return payout;
  };

  const kind: ApprovableKind = {
    kind: PAYOUT,
    async loadCard(card, entityId) {
      const payout = payouts.get(entityId);
      if (!payout || !inScope(card.ctx, payout.subOrgId)) return null;
      const frozen = await frozenOf(card, entityId, payout.subOrgId, true);
      const built: ApprovalCard = {
        intent: {
          kind: PAYOUT,
          category: 'PAYOUT',
          source: null,
          // The payee as its id too: a destination is compared by what identifies it, and a
          // changed payee must void the votes cast on the old one.
          destination: {
            type: 'PAYEE',
            id: payout.payee,
            name: payout.payee,
            address: null,
            blockChain: null,
            rail: null,
            last4: null,
            ours: false,
            approvedContact: false,
            approvedContactSince: null,
          },
          asset: 'USD',
          blockChain: null,
          amount: payout.amount,
          assets: null,
          feeCeiling: null,
          call: null,
          quote: null,
          rule: await ruleOf(card, frozen.requirement),
        },
        status: {
          entityId,
          state: payout.status,
          createdAt: null,
          computedAt: card.clock.now().toISOString(),
          amountUsd: payout.amount,
          priceUsd: null,
          feeCeilingUsd: null,
          balances: [],
          quorum: frozen.quorum,
        },
      };
      return built;
    },
    async stateOf(card, entityId) {
      const payout = read(card.ctx, entityId);
      return { pending: payout.status === 'PENDING', subOrgId: payout.subOrgId };
    },
    async settle(card, entityId, outcome) {
      const payout = read(card.ctx, entityId);
      payout.status = outcome;
      payout.settled += 1;
    },
  };

  return {
    kind,
    payouts,
    /** A member proposes a payout: its rule is frozen by the core, and the browsers told. */
    async propose(
      db: Database,
      clock: Clock,
      by: { id: string; role: 'initiator' | 'approver' | 'admin' },
      fields: { subOrgId: string | null; payee: string; amount: string },
    ): Promise<Payout> {
      const payout: Payout = { id: randomUUID(), ...fields, status: 'PENDING', settled: 0 };
      payouts.set(payout.id, payout);
      await proposeHeld(db, clock, {
        kind,
        entityId: payout.id,
        subOrgId: payout.subOrgId,
        requirement: twoApprovers,
        initiator: { kind: 'staff', id: by.id, role: by.role },
      });
      return payout;
    },
  };
}
