import { Hono } from 'hono';
import { ERROR_CODES } from '#contract/common.ts';
import { approvalMessage, decideApproval } from '#contract/endpoints/approvals.ts';
import { ApiError } from '#contract/api-error.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import { mountCustody } from '../../custody/routes/parse-body.ts';

const DECIDED: Record<string, string> = {
  'change_request.approve': 'approved',
  'change_request.reject': 'rejected',
};

// Ids of every entity are short printable strings; anything else names nothing.
const IMPOSSIBLE_ID = /\p{Cc}/u;

/**
 * Change-request approvals for bank accounts, transactions,
 * contacts and vaults: fetch the message to sign, then approve or reject.
 */
export function approvalRoutes(backend: CustodyBackend) {
  const app = new Hono<AppEnv>();
  mountCustody(
    app,
    approvalMessage,
    ({ query }, c) => backend.getApprovalMessage(custodyContext(c), query.entityId),
    { query: (c) => ({ entityId: entityIdOf(c.req.query('entityId')) }) },
  );
  mountCustody(
    app,
    decideApproval,
    ({ params, body }, c) => backend.decideApproval(custodyContext(c), params.approvalId, body),
    {
      audit: {
        // A refusal names only the approval; it is filed under the bank account or
        // transaction it decides, like the approval that succeeds (its answer's entityId).
        entityOf: async (approvalId, c) =>
          (await backend.approvalEntityId?.(custodyContext(c), approvalId)) ?? null,
        // Only the decision is read from the body: never a signature or a reason's free text.
        fromRequest: (body) => {
          const decision =
            body && typeof body === 'object' ? (body as { action?: unknown }).action : undefined;
          return decision === 'approve' || decision === 'reject'
            ? { action: `change_request.${decision}` }
            : {};
        },
        summary: (answer, action) => {
          const decided = DECIDED[action] ?? 'decided';
          const status = typeof answer['status'] === 'string' ? answer['status'] : '';
          return `Change request ${decided}${status ? `, status ${status}` : ''}`;
        },
      },
    },
  );
  return app;
}

/** The message's entity: required, and one no entity could have is simply not found. */
function entityIdOf(entityId: string | undefined): string {
  if (!entityId) {
    const message =
      'entityId is required: the id of the bank account, transaction, contact or vault';
    throw new ApiError(400, ERROR_CODES.validation, message, [{ field: 'entityId', message }]);
  }
  if (entityId.length > 200 || IMPOSSIBLE_ID.test(entityId)) {
    throw new ApiError(404, ERROR_CODES.notFound, 'No change request for that entity');
  }
  return entityId;
}
