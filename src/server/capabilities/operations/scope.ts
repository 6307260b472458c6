import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { parseOperationId } from '#contract/operations.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';
import { allowedIds, checked } from '../../console/scope-rules.ts';
import type { OperationsPort } from './port.ts';

/**
 * An operation is its transaction's: outside a member's sub-organizations it
 * is 404, as the transaction is (wiring/scoped-backend.ts). API clients
 * carry no scope.
 */
export function operationsScope(inner: CustodyBackend): OperationsPort {
  const inScope = async (ctx: CustodyContext, operationId: string) => {
    if (!allowedIds(ctx)) return;
    const ids = parseOperationId(operationId);
    if (!ids) throw new ApiError(404, ERROR_CODES.notFound, `No operation "${operationId}"`);
    // Its transaction read as a member reads it: 404 outside their sub-organizations.
    checked(
      ctx,
      'transaction',
      ids.transactionId,
      await inner.getTransaction(ctx, ids.transactionId),
    );
  };
  return {
    getOperationMessage: async (ctx, operationId) => {
      await inScope(ctx, operationId);
      return inner.getOperationMessage(ctx, operationId);
    },
    updateUserAction: async (ctx, operationId, body) => {
      await inScope(ctx, operationId);
      return inner.updateUserAction(ctx, operationId, body);
    },
  };
}
