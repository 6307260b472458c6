import type { z } from 'zod';
import { pathOf, toQueryString } from '#contract/endpoint.ts';
import { createVault } from '#contract/endpoints/vault-writes.ts';
import {
  getDepositAddress,
  getDetailedBalances,
  getVaultDepositInstructions,
  updateBalances,
} from '#contract/endpoints/vaults.ts';
import { Vault, VaultBalances } from '#contract/reference.ts';
import {
  DepositAddressResponse,
  DetailedBalanceList,
  VaultDepositInstructionsResponse,
} from '#contract/vault.ts';
import type { CustodyContext } from '../../../custody/call-context.ts';
import type { UpstreamRequest } from '../../../custody/upstream/upstream-client.ts';
import type { VaultsPort } from '../port.ts';

type Call = <S extends z.core.$ZodType>(
  ctx: CustodyContext,
  schema: S,
  request: Omit<UpstreamRequest, 'requestId'>,
) => Promise<z.output<S>>;

/** Vaults forwarded to the custody API: reads retried, a create never. */
export function vaultsUpstream({ call }: { call: Call }): VaultsPort {
  return {
    getDetailedBalances: (ctx, vaultId) =>
      call(ctx, DetailedBalanceList, {
        method: 'GET',
        path: pathOf(getDetailedBalances, { vaultId }),
        retry: true,
      }),
    updateBalances: (ctx, vaultId) =>
      call(ctx, VaultBalances, {
        method: 'POST',
        path: pathOf(updateBalances, { vaultId }),
        retry: true,
      }),
    getDepositAddress: (ctx, query) =>
      call(ctx, DepositAddressResponse, {
        method: 'GET',
        path: `${pathOf(getDepositAddress)}${toQueryString(query)}`,
        retry: true,
      }),
    getVaultDepositInstructions: (ctx, vaultId, query) =>
      call(ctx, VaultDepositInstructionsResponse, {
        method: 'GET',
        path: `${pathOf(getVaultDepositInstructions, { vaultId })}${toQueryString(query)}`,
        retry: true,
      }),
    createVault: (ctx, body) =>
      call(ctx, Vault, { method: 'POST', path: pathOf(createVault), body, retry: false }),
  };
}
