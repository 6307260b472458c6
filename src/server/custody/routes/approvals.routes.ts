import { Hono } from 'hono';
import { ERROR_CODES } from '../../../contract/common.ts';
import { routes } from '../../../contract/paths.ts';
import { ApprovalActionRequest } from '../../../contract/reference.ts';
import { ApiError } from '../../http/api-error.ts';
import type { AppEnv } from '../../http/app-env.ts';
import type { CustodyBackend } from '../backend.ts';
import { custodyContext } from './context.ts';
import { parseBody, readJsonBody } from './json-body.ts';
import { pathId } from './list-query.ts';

// Ids of every entity are short printable strings; anything else names nothing.
const IMPOSSIBLE_ID = /\p{Cc}/u;

/**
 * Change-request approvals (DESIGN.md §3) for bank accounts, transactions,
 * contacts and vaults: fetch the message to sign, then approve or reject.
 */
export function approvalRoutes(backend: CustodyBackend) {
  return new Hono<AppEnv>()
    .get(routes.approvalMessage, async (c) => {
      const entityId = c.req.query('entityId');
      if (!entityId) {
        const message =
          'entityId is required: the id of the bank account, transaction, contact or vault';
        throw new ApiError(400, ERROR_CODES.validation, message, [{ field: 'entityId', message }]);
      }
      if (entityId.length > 200 || IMPOSSIBLE_ID.test(entityId)) {
        throw new ApiError(404, ERROR_CODES.notFound, 'No change request for that entity');
      }
      return c.json(await backend.getApprovalMessage(custodyContext(c), entityId));
    })
    .post(routes.approvalAction, async (c) => {
      const approvalId = pathId(c, 'approvalId', 'approval');
      const request = parseBody(ApprovalActionRequest, await readJsonBody(c));
      return c.json(await backend.decideApproval(custodyContext(c), approvalId, request));
    });
}
