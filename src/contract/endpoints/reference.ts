import { BackendInfo } from '../backend-info.ts';
import { endpoint } from '../endpoint.ts';
import {
  AssetListResponse,
  SubOrgFilters,
  SubOrgListResponse,
  SupportedChainListResponse,
  Vault,
  VaultBalances,
  VaultFilters,
  VaultListResponse,
} from '../reference.ts';

/**
 * Reference data: what the forms, filters and scope switcher read (vaults,
 * balances, assets, chains, sub-organizations), and which custody service the
 * console acts on. Reads, any role. The address book's list is in `contacts.ts`.
 */

const read = { action: 'read', permission: 'read', audit: false } as const;

export const listVaults = endpoint({
  method: 'GET',
  path: '/api/external/vaults/',
  summary: 'Vaults in scope, keyset-paged; `vaultName` filters by name.',
  ...read,
  query: VaultFilters,
  paged: true,
  answer: VaultListResponse,
});

export const getVault = endpoint({
  method: 'GET',
  path: '/api/external/vaults/:vaultId/',
  summary: 'One vault, with its wallets, signers and viewers.',
  ...read,
  resource: 'vault',
  answer: Vault,
});

export const getVaultBalances = endpoint({
  method: 'GET',
  path: '/api/external/vaults/:vaultId/balances/',
  summary: 'What a vault holds: `{ASSET: {CHAIN: "decimal"}}`.',
  ...read,
  resource: 'vault',
  answer: VaultBalances,
});

export const listAssets = endpoint({
  method: 'GET',
  path: '/api/external/assets/',
  summary: 'Every asset on every chain the custody service holds.',
  ...read,
  answer: AssetListResponse,
});

export const listSupportedChains = endpoint({
  method: 'GET',
  path: '/api/external/assets/supported_chains/',
  summary: 'The chains the custody service supports.',
  ...read,
  answer: SupportedChainListResponse,
});

export const listSubOrgs = endpoint({
  method: 'GET',
  path: '/api/external/sub_orgs/',
  summary:
    'Sub-organizations in scope, keyset-paged: the scope switcher. `name` filters them (a LIKE pattern with `%`, or a part of the name).',
  ...read,
  paged: true,
  query: SubOrgFilters,
  answer: SubOrgListResponse,
});

export const backendInfo = endpoint({
  method: 'GET',
  path: '/api/console/backend',
  summary:
    "Which custody service staff act on: the sandbox, or upstream's host (the header's badge).",
  ...read,
  answer: BackendInfo,
});
