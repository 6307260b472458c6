import type { Vault, VaultBalances } from '#contract/reference.ts';
import type {
  DepositAddressQuery,
  DepositAddressResponse,
  DetailedBalance,
  VaultDepositInstructionsQuery,
  VaultDepositInstructionsResponse,
} from '#contract/vault.ts';
import type { VaultCreateRequest } from '#contract/vault-writes.ts';
import type { CustodyContext } from '../../custody/call-context.ts';

/**
 * Vaults beyond the reference reads, as either backend answers them: their
 * holdings valued, a balance refresh, deposit addresses, and creation.
 */
export interface VaultsPort {
  getDetailedBalances(ctx: CustodyContext, vaultId: string): Promise<DetailedBalance[]>;
  updateBalances(ctx: CustodyContext, vaultId: string): Promise<VaultBalances>;
  getDepositAddress(
    ctx: CustodyContext,
    query: DepositAddressQuery,
  ): Promise<DepositAddressResponse>;
  getVaultDepositInstructions(
    ctx: CustodyContext,
    vaultId: string,
    query: VaultDepositInstructionsQuery,
  ): Promise<VaultDepositInstructionsResponse>;
  /** Created with its wallets and a change request approving it (createVaultWithApproval). */
  createVault(ctx: CustodyContext, body: VaultCreateRequest): Promise<Vault>;
}

// The backend the routes speak to holds this port: each capability adds its
// own, so custody/backend.ts composes them without importing any capability.
declare module '../../custody/backend.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into CustodyBackend
  interface CustodyBackend extends VaultsPort {}
}
