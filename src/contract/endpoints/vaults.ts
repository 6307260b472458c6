import { endpoint } from '../endpoint.ts';
import { VaultBalances } from '../reference.ts';
import {
  DepositAddressQuery,
  DepositAddressResponse,
  DetailedBalanceList,
  VaultDepositInstructionsQuery,
  VaultDepositInstructionsResponse,
} from '../vault.ts';

/**
 * A vault's holdings valued in USD, a balance refresh, and its deposit
 * addresses (the SDKs' getDetailedBalances, updateBalances and
 * get_deposit_address). The vault list and raw balances are reference data.
 */

export const getDetailedBalances = endpoint({
  method: 'GET',
  path: '/api/external/vaults/:vaultId/detailed_balances/',
  summary: 'What a vault holds, per asset and chain, with the price and the value in USD.',
  action: 'read',
  permission: 'read',
  audit: false,
  resource: 'vault',
  answer: DetailedBalanceList,
});

export const updateBalances = endpoint({
  method: 'POST',
  path: '/api/external/vaults/:vaultId/update_balances/',
  summary:
    "Asks the custody service to re-read a vault's balances from the chains; the sandbox's are always current, so it answers them.",
  action: 'read',
  permission: 'read',
  audit: false,
  resource: 'vault',
  answer: VaultBalances,
});

export const getDepositAddress = endpoint({
  method: 'GET',
  path: '/api/external/transactions/get_deposit_address/',
  summary:
    "A vault's addresses to deposit into, on every chain or those of one asset (`currency`).",
  action: 'read',
  permission: 'read',
  audit: false,
  query: DepositAddressQuery,
  answer: DepositAddressResponse,
});

export const getVaultDepositInstructions = endpoint({
  method: 'GET',
  path: '/api/external/vaults/:vaultId/deposit_instructions/',
  summary:
    "How to send an asset into a vault: its wallet's address on `chain`, or for a fiat currency by `paymentRail` the settlement account (masked) and the reference to quote.",
  action: 'read',
  permission: 'read',
  audit: false,
  resource: 'vault',
  query: VaultDepositInstructionsQuery,
  answer: VaultDepositInstructionsResponse,
});
