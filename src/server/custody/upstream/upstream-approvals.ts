import type { KeyObject } from 'node:crypto';
import type { z } from 'zod';
import { ERROR_CODES } from '../../../contract/common.ts';
import { paths, toQueryString } from '../../../contract/paths.ts';
import {
  ApprovalActionResponse,
  ApprovalMessageResponse,
  type ApprovalActionRequest,
} from '../../../contract/reference.ts';
import type { Transaction } from '../../../contract/transaction.ts';
import { signApprovalMessage } from '../../protocol/api-token.ts';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import { ApiError } from '../../../contract/api-error.ts';
import type { CustodyBackend, CustodyContext } from '../backend.ts';
import { approvalEntity, creatorsOf, recordApproval } from './creators.store.ts';
import { UpstreamFailure, type UpstreamClient, type UpstreamRequest } from './upstream-client.ts';

/**
 * Change-request approvals through upstream. Upstream knows one API user,
 * which may decide what it created itself; the console holds its members to
 * four-eyes first, and only then signs the approval message with the API
 * user's key. The audit row names the member (the audit middleware records
 * the request's staff actor).
 */

const FOUR_EYES_MESSAGE =
  'Four-eyes rule: you created this request; another member must decide (approve or reject) it';

interface Deps {
  db: Database;
  clock: Clock;
  client: UpstreamClient;
  privateKey: KeyObject;
  read: <S extends z.core.$ZodType>(
    ctx: CustodyContext,
    schema: S,
    path: string,
  ) => Promise<z.output<S>>;
  call: <S extends z.core.$ZodType>(
    ctx: CustodyContext,
    schema: S,
    request: Omit<UpstreamRequest, 'requestId'>,
  ) => Promise<z.output<S>>;
  getTransaction: (ctx: CustodyContext, id: string) => Promise<Transaction>;
}

export function upstreamApprovalOperations(deps: Deps) {
  const { db } = deps;

  async function getApprovalMessage(
    ctx: CustodyContext,
    entityId: string,
  ): Promise<ApprovalMessageResponse> {
    const answer = await deps.read(
      ctx,
      ApprovalMessageResponse,
      `${paths.approvalMessage()}${toQueryString({ entityId })}`,
    );
    // A decision names only the approval id: remember whose it is.
    await recordApproval(db, answer.approvalId, entityId, deps.clock.now());
    return answer;
  }

  /** Who created the entity through this console, if anyone did. */
  async function creators(ctx: CustodyContext, entityId: string): Promise<string[]> {
    // Transactions are recorded by externalId too (before sending), so look it up.
    const transaction = await deps.getTransaction(ctx, entityId).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 404) return undefined;
      throw error;
    });
    return creatorsOf(db, entityId, transaction?.externalId);
  }

  async function decideApproval(
    ctx: CustodyContext,
    approvalId: string,
    request: ApprovalActionRequest,
  ): Promise<ApprovalActionResponse> {
    const actor = ctx.actor;
    if (actor?.type !== 'STAFF') {
      throw new ApiError(401, ERROR_CODES.unauthorized, 'approving needs a signed-in staff member');
    }
    const entityId = await approvalEntity(db, approvalId);
    if (!entityId) {
      throw new ApiError(
        404,
        ERROR_CODES.notFound,
        `No approval with id "${approvalId}"; open the entity's approval message first`,
      );
    }
    if ((await creators(ctx, entityId)).includes(actor.id)) {
      throw new ApiError(403, ERROR_CODES.fourEyes, FOUR_EYES_MESSAGE);
    }
    // Sign the message as it stands now, and only for the approval the member is deciding.
    const current = await getApprovalMessage(ctx, entityId);
    if (current.approvalId !== approvalId) {
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        `Approval "${approvalId}" is no longer the current change request of ${entityId}; reload it`,
      );
    }
    const body = {
      action: request.action,
      signature: signApprovalMessage(current.message, deps.privateKey),
      ...(request.reason ? { reason: request.reason } : {}),
    };
    try {
      return await deps.call(ctx, ApprovalActionResponse, {
        method: 'POST',
        path: paths.approvalAction(approvalId),
        body,
        retry: false,
      });
    } catch (error) {
      if (!(error instanceof UpstreamFailure)) throw error;
      // Never sent twice blindly: a decided request answers 409 ALREADY_DECIDED on its message.
      throw new UpstreamFailure(
        error.reason,
        `${error.message.replace(/ \(request id .*\)$/, '')}; whether the decision was recorded is not known yet. Reload the ${deps.client.host} entity before deciding again`,
        ctx.requestId,
      );
    }
  }

  const approvalEntityId: NonNullable<CustodyBackend['approvalEntityId']> = (_ctx, approvalId) =>
    approvalEntity(db, approvalId);

  return { getApprovalMessage, decideApproval, approvalEntityId };
}
