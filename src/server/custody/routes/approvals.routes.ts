import { Hono } from 'hono';
import { ERROR_CODES } from '../../../contract/common.ts';
import { routes } from '../../../contract/paths.ts';
import { ApprovalActionRequest } from '../../../contract/reference.ts';
import { ApiError } from '../../../contract/api-error.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { rule } from '../../http/route-rule.ts';
import type { CustodyBackend } from '../backend.ts';
import { custodyContext } from '../context.ts';
import { readJsonBody } from '../../http/json-body.ts';
import { parseBody } from './parse-body.ts';
import { pathId } from '../../http/list-query.ts';

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
  return (
    new Hono<AppEnv>()
      // Reading the message is an approver's step (it is what they decide on).
      .get(
        routes.approvalMessage,
        rule({ permission: 'approve', action: 'read approval messages', audit: false }),
        async (c) => {
          const entityId = c.req.query('entityId');
          if (!entityId) {
            const message =
              'entityId is required: the id of the bank account, transaction, contact or vault';
            throw new ApiError(400, ERROR_CODES.validation, message, [
              { field: 'entityId', message },
            ]);
          }
          if (entityId.length > 200 || IMPOSSIBLE_ID.test(entityId)) {
            throw new ApiError(404, ERROR_CODES.notFound, 'No change request for that entity');
          }
          return c.json(await backend.getApprovalMessage(custodyContext(c), entityId));
        },
      )
      .post(
        routes.approvalAction,
        rule({
          permission: 'approve',
          action: 'approve or reject change requests',
          audit: {
            action: 'change_request.decide',
            entityType: 'CHANGE_REQUEST',
            entityParam: 'approvalId',
            // A refusal names only the approval; it is filed under the bank account or
            // transaction it decides, like the approval that succeeds (its answer's entityId).
            entityOf: async (approvalId, c) =>
              (await backend.approvalEntityId?.(custodyContext(c), approvalId)) ?? null,
            // Only the decision is read from the body: never a signature or a reason's free text.
            fromRequest: (body) => {
              const decision =
                body && typeof body === 'object'
                  ? (body as { action?: unknown }).action
                  : undefined;
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
        }),
        async (c) => {
          const approvalId = pathId(c, 'approvalId', 'approval');
          const request = parseBody(ApprovalActionRequest, await readJsonBody(c));
          return c.json(await backend.decideApproval(custodyContext(c), approvalId, request));
        },
      )
  );
}
