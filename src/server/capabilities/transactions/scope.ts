import { ERROR_CODES } from '#contract/common.ts';
import { ApiError } from '#contract/api-error.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';
import {
  allowedIds,
  checked,
  checkParties,
  inScope,
  keepInScope,
  namedParties,
  scopeListQuery,
} from '../../console/scope-rules.ts';
import type { StakedOf, TransactionsPort } from './port.ts';

function isDuplicateExternalId(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === ERROR_CODES.duplicateExternalId;
}

/**
 * Transactions held to a member's sub-organizations (console/scope-rules.ts):
 * lists narrowed, gets 404 outside the scope; a create, fee estimate or
 * replacement may name (as source, destination, `vaultId` or `feePayer`)
 * only vaults and contacts of the member's own sub-orgs, and a replacement
 * pays whom its original pays, so the original's destination is checked too;
 * a create refused for a duplicate externalId does not name the original
 * unless the caller may see it.
 */
export function transactionsScope(inner: CustodyBackend): TransactionsPort {
  /**
   * A duplicate externalId's refusal names the original; a restricted caller
   * who may not see it hears only that the id is taken.
   */
  async function withoutHiddenOriginal(
    ctx: CustodyContext,
    error: ApiError,
    externalId: string | undefined,
  ): Promise<ApiError> {
    if (!allowedIds(ctx) || !externalId) return error;
    const page = await inner.listTransactions(ctx, { externalId, limit: 1 });
    const original = page.results[0];
    if (original && inScope(ctx, original.subOrgId)) return error;
    const message = `externalId "${externalId}" is already used in this organization; nothing was created`;
    const hidden = new ApiError(error.status, error.code, message, [
      { field: 'externalId', message },
    ]);
    Object.assign(hidden.headers, error.headers);
    return hidden;
  }

  return {
    listTransactions: async (ctx, q) =>
      keepInScope(ctx, await inner.listTransactions(ctx, scopeListQuery(ctx, q))),
    getTransaction: async (ctx, id) =>
      checked(ctx, 'transaction', id, await inner.getTransaction(ctx, id)),
    createTransaction: async (ctx, body) => {
      await checkParties(inner, ctx, namedParties(body));
      try {
        return await inner.createTransaction(ctx, body);
      } catch (error) {
        throw isDuplicateExternalId(error)
          ? await withoutHiddenOriginal(ctx, error, body.externalId)
          : error;
      }
    },
    replaceTransaction: async (ctx, body) => {
      if (allowedIds(ctx)) {
        const original = checked(
          ctx,
          'transaction',
          body.transactionId,
          await inner.getTransaction(ctx, body.transactionId),
        );
        await checkParties(inner, ctx, [original.destination ?? {}]);
      }
      return inner.replaceTransaction(ctx, body);
    },
    // Only for a vault the member may read: another sub-org's is a 404, as its get would be.
    ...(inner.stakedAmount
      ? {
          stakedAmount: async (ctx: CustodyContext, of: StakedOf) => {
            checked(ctx, 'vault', of.vaultId, await inner.getVault(ctx, of.vaultId));
            return inner.stakedAmount!(ctx, of);
          },
        }
      : {}),
    // Only a transaction the member may read: another sub-org's is a 404, as its get would be.
    ...(inner.cancelScheduled
      ? {
          cancelScheduled: async (ctx: CustodyContext, transactionId: string, by: string) => {
            checked(
              ctx,
              'transaction',
              transactionId,
              await inner.getTransaction(ctx, transactionId),
            );
            return inner.cancelScheduled!(ctx, transactionId, by);
          },
        }
      : {}),
    estimateFee: async (ctx, body) => {
      await checkParties(inner, ctx, namedParties(body));
      return inner.estimateFee(ctx, body);
    },
  };
}
