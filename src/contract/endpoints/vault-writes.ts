import { endpoint } from '../endpoint.ts';
import { Vault } from '../reference.ts';
import { VaultCreateRequest } from '../vault-writes.ts';

/** Creating a vault (the SDKs' createVault and createVaultWithApproval). */
export const createVault = endpoint({
  method: 'POST',
  path: '/api/external/vaults/',
  summary:
    'Creates a vault with a wallet on each chain asked for (every chain by default), and a change request to approve it.',
  action: 'create vaults',
  permission: 'admin',
  audit: { action: 'vault.create', entityType: 'VAULT' },
  body: VaultCreateRequest,
  answer: Vault,
});
