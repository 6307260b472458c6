import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { CustodyBackend, CustodyContext } from '../../custody/backend.ts';
import type { VaultsPort } from './port.ts';

/**
 * Vaults held to a member's sub-organizations (wiring/scoped-backend.ts):
 * a vault outside them is 404 for every read; a vault is created in one of
 * them (the one named, or their only one). An API user held to
 * sub-organizations is held alike; one held to none passes straight through.
 */
export function vaultsScope(inner: CustodyBackend): VaultsPort {
  const inScope = async (ctx: CustodyContext, vaultId: string) => {
    const ids = ctx.scope?.subOrgIds;
    if (!ids) return;
    const vault = await inner.getVault(ctx, vaultId);
    if (!vault.subOrgId || !ids.includes(vault.subOrgId))
      throw new ApiError(404, ERROR_CODES.notFound, `No vault with id "${vaultId}"`);
  };
  return {
    getDetailedBalances: async (ctx, vaultId) => {
      await inScope(ctx, vaultId);
      return inner.getDetailedBalances(ctx, vaultId);
    },
    updateBalances: async (ctx, vaultId) => {
      await inScope(ctx, vaultId);
      return inner.updateBalances(ctx, vaultId);
    },
    getDepositAddress: async (ctx, query) => {
      await inScope(ctx, query.vaultId);
      return inner.getDepositAddress(ctx, query);
    },
    getVaultDepositInstructions: async (ctx, vaultId, query) => {
      await inScope(ctx, vaultId);
      return inner.getVaultDepositInstructions(ctx, vaultId, query);
    },
    createVault: async (ctx, body) => {
      const ids = ctx.scope?.subOrgIds;
      if (!ids) return inner.createVault(ctx, body);
      const subOrgId = body.subOrgId ?? (ids.length === 1 ? ids[0] : undefined);
      if (!subOrgId) {
        const message =
          'subOrgId is required: you act in several sub-organizations, so name the one the vault belongs to';
        throw new ApiError(400, ERROR_CODES.validation, message, [{ field: 'subOrgId', message }]);
      }
      if (!ids.includes(subOrgId))
        throw new ApiError(404, ERROR_CODES.notFound, `No sub-organization with id "${subOrgId}"`);
      return inner.createVault(ctx, { ...body, subOrgId });
    },
  };
}
