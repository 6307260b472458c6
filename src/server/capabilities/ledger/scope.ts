import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';
import { checked, scopeListQuery } from '../../console/scope-rules.ts';
import type { LedgerFilter, LedgerPort } from './port.ts';

/**
 * A member sees the ledger of their sub-organizations only: a vault outside
 * them is 404 (read as they read it), a sub-organization outside them is
 * 404, and asking for neither narrows to theirs. API clients and
 * unrestricted members pass straight through.
 */
export function ledgerScope(inner: CustodyBackend): LedgerPort {
  const narrowed = async (ctx: CustodyContext, filter: LedgerFilter): Promise<LedgerFilter> => {
    if (filter.vaultId && filter.subOrgId) {
      const message = 'give vaultId or subOrgId, not both';
      throw new ApiError(400, ERROR_CODES.validation, message, [
        { field: 'vaultId', message },
        { field: 'subOrgId', message },
      ]);
    }
    if (filter.vaultId) {
      checked(ctx, 'vault', filter.vaultId, await inner.getVault(ctx, filter.vaultId));
      return { vaultId: filter.vaultId };
    }
    const q = scopeListQuery(ctx, { subOrgId: filter.subOrgId, subOrgIds: filter.subOrgIds });
    return { subOrgId: q.subOrgId, subOrgIds: q.subOrgIds };
  };
  return {
    ledgerHistory: async (ctx, query) =>
      inner.ledgerHistory(ctx, { ...(await narrowed(ctx, query)), days: query.days }),
    ledgerStatement: async (ctx, query) =>
      inner.ledgerStatement(ctx, {
        ...(await narrowed(ctx, query)),
        from: query.from,
        to: query.to,
        page: query.page,
      }),
  };
}
