import type { SandboxDeps } from '../../../custody/sandbox/sandbox-deps.ts';
import type { ApprovalsPort } from '../port.ts';
import { approvalEntityId, decideApproval, getApprovalMessage } from './approval-action.ts';
import type { DecisionEffects } from './effects.ts';
import { changeRequestHistory } from './history.ts';
import { approvalDecisions } from './latest-decisions.ts';
import {
  countsKey,
  PENDING_COUNT_TABLES,
  PENDING_PAGE_TABLES,
  pendingApprovalCounts,
  pendingApprovalPage,
} from './pending.ts';

/**
 * Change requests over the sandbox's tables: messages, decisions, their
 * history, the inbox. `effects`: what a decision does to a bank account or a
 * contact, given by the capabilities that own them.
 */
export function approvalsSandbox(
  { db, clock, orgIdFor, cachedList }: SandboxDeps,
  effects: DecisionEffects,
): ApprovalsPort {
  return {
    getApprovalMessage: async (ctx, entityId) =>
      getApprovalMessage(db, await orgIdFor(ctx), entityId),
    decideApproval: async (ctx, approvalId, request) =>
      decideApproval(db, await orgIdFor(ctx), ctx.actor, approvalId, request, clock.now(), effects),
    approvalEntityId: async (ctx, approvalId) =>
      approvalEntityId(db, await orgIdFor(ctx), approvalId),
    changeRequestHistory: async (ctx, entityId) =>
      changeRequestHistory(db, await orgIdFor(ctx), entityId),
    approvalDecisions: async (ctx, entityIds) =>
      approvalDecisions(db, await orgIdFor(ctx), entityIds),
    // Every page's navigation asks for the inbox's count: reused while neither table is
    // written, and kept apart from the pages, whose cursors do not change it. A page also
    // reads who proposed its items (API users' names).
    pendingApprovals: async (ctx, query) => {
      const [page, counts] = await Promise.all([
        // A limit of 0 asks for the counts alone (the badge, the overview's waiting figure).
        query.limit === 0
          ? { items: [], hasNext: false }
          : cachedList(ctx, 'pending-approvals', query, PENDING_PAGE_TABLES, (orgId) =>
              pendingApprovalPage(db, orgId, query),
            ),
        cachedList(
          ctx,
          'pending-approval-counts',
          countsKey(query),
          PENDING_COUNT_TABLES,
          (orgId) => pendingApprovalCounts(db, orgId, query),
        ),
      ]);
      return { ...page, ...counts };
    },
  };
}
