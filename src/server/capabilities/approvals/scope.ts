import { ERROR_CODES } from '#contract/common.ts';
import { ApiError } from '#contract/api-error.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';
import { allowedIds, inScope, isNotFound, scopeListQuery } from '../../console/scope-rules.ts';
import type { ApprovalsPort } from './port.ts';

/**
 * Approvals held to a member's sub-organizations (console/scope-rules.ts): a
 * change request's message and decision only for an entity in the scope
 * (404 otherwise, before anything is decided); the inbox narrowed like a
 * list. What the console reads of change requests by entity
 * (`changeRequestHistory`, `approvalDecisions`) passes through: its callers
 * check the entity's scope first, or hold each decision to it by its sub-org.
 */
export function approvalsScope(inner: CustodyBackend): ApprovalsPort {
  /** The entity a change request is about: a bank account or a transaction, in scope or 404. */
  async function checkEntity(ctx: CustodyContext, entityId: string): Promise<void> {
    if (!allowedIds(ctx)) return;
    for (const get of [
      inner.getBankAccount,
      inner.getTransaction,
      inner.getVault,
      inner.getContact,
    ]) {
      try {
        const entity = await get(ctx, entityId);
        if (inScope(ctx, entity.subOrgId)) return;
        break;
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    }
    throw new ApiError(404, ERROR_CODES.notFound, `No change request for entity "${entityId}"`);
  }

  const { approvalEntityId, changeRequestHistory, approvalDecisions, pendingApprovals } = inner;
  return {
    decideApproval: async (ctx, approvalId, request) => {
      if (allowedIds(ctx)) {
        const entityId = approvalEntityId ? await approvalEntityId(ctx, approvalId) : null;
        const noApproval = new ApiError(
          404,
          ERROR_CODES.notFound,
          `No approval with id "${approvalId}"`,
        );
        if (!entityId) throw noApproval;
        await checkEntity(ctx, entityId).catch((error: unknown) => {
          throw isNotFound(error) ? noApproval : error;
        });
      }
      return inner.decideApproval(ctx, approvalId, request);
    },
    getApprovalMessage: async (ctx, entityId) => {
      await checkEntity(ctx, entityId);
      return inner.getApprovalMessage(ctx, entityId);
    },
    ...(approvalEntityId && { approvalEntityId }),
    ...(changeRequestHistory && { changeRequestHistory }),
    ...(approvalDecisions && { approvalDecisions }),
    // Narrowed like a list (its counts too); items outside the scope are dropped as a last line of defence.
    ...(pendingApprovals && {
      pendingApprovals: async (ctx, q) => {
        const found = await pendingApprovals(ctx, scopeListQuery(ctx, q));
        const owner = (item: (typeof found.items)[number]) =>
          item.kind === 'TRANSACTION'
            ? item.transaction.subOrgId
            : item.kind === 'BANK_ACCOUNT'
              ? item.bankAccount.subOrgId
              : item.contact.subOrgId;
        const inside = found.items.filter((item) => inScope(ctx, owner(item)));
        return inside.length === found.items.length ? found : { ...found, items: inside };
      },
    }),
  };
}
