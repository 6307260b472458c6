import type { z } from 'zod';
import { pathOf } from '#contract/endpoint.ts';
import { operationMessageToSign, updateUserAction } from '#contract/endpoints/operations.ts';
import { OperationMessageResponse, OperationUserActionResponse } from '#contract/operations.ts';
import type { CustodyContext } from '../../../custody/call-context.ts';
import type { UpstreamRequest } from '../../../custody/upstream/upstream-client.ts';
import type { OperationsPort } from '../port.ts';

type Call = <S extends z.core.$ZodType>(
  ctx: CustodyContext,
  schema: S,
  request: Omit<UpstreamRequest, 'requestId'>,
) => Promise<z.output<S>>;

/** Passed through, signed with the API user's key like every other call. */
export function operationsUpstream({ call }: { call: Call }): OperationsPort {
  return {
    getOperationMessage: (ctx, operationId) =>
      call(ctx, OperationMessageResponse, {
        method: 'GET',
        path: pathOf(operationMessageToSign, { operationId }),
        retry: true,
      }),
    // Never retried: an action applied once and answered late must not be sent twice.
    updateUserAction: (ctx, operationId, body) =>
      call(ctx, OperationUserActionResponse, {
        method: 'POST',
        path: pathOf(updateUserAction, { operationId }),
        body,
        retry: false,
      }),
  };
}
