import { Hono } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { chainInfo } from '#contract/chains.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { stakedAmount } from '#contract/endpoints/transactions.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';

function refused(field: string, message: string): ApiError {
  return new ApiError(400, ERROR_CODES.validation, message, [{ field, message }]);
}

/**
 * GET /api/console/vaults/{id}/staked/ (contract/staked.ts): what the vault
 * has staked, for the unstake form. The custody API has no such read, so
 * this is the console's own; the vault is read through the scoped backend
 * first (404 outside the member's sub-organizations). Upstream, where the
 * custody API reports no stake, `staked` is null and the form leaves the
 * check to the custody API.
 */
export function stakedRoutes(backend: CustodyBackend) {
  return mount(
    new Hono<AppEnv>(),
    CONSOLE_API_PREFIX,
    stakedAmount,
    async ({ params: { vaultId }, query }, c) => {
      const chain = chainInfo(query.blockChain);
      if (!chain?.stake)
        throw refused(
          'blockChain',
          `blockChain ${query.blockChain} offers no staking: choose a chain where stake is offered`,
        );
      if (query.resourceType && !chain.tronResources)
        throw refused('resourceType', `resourceType is for Tron only, not ${chain.label}`);
      const ctx = custodyContext(c);
      await backend.getVault(ctx, vaultId);
      const of = {
        vaultId,
        blockChain: chain.value,
        asset: chain.nativeAsset,
        resourceType: query.resourceType ?? null,
      };
      const staked = backend.stakedAmount ? await backend.stakedAmount(ctx, of) : null;
      return { ...of, resourceType: query.resourceType ?? null, staked };
    },
  );
}
