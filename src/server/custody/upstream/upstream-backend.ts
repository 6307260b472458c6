import { ERROR_CODES } from '../../../contract/common.ts';
import { ApiError } from '../../http/api-error.ts';
import type { CustodyBackend } from '../backend.ts';

/**
 * Placeholder for forwarding to a real custody API (a later issue): every
 * call answers 503 saying so, rather than pretending with empty data.
 */
export function createUpstreamBackend(baseUrl: string): CustodyBackend {
  const unavailable = async (): Promise<never> => {
    throw new ApiError(
      503,
      ERROR_CODES.upstreamUnavailable,
      `Forwarding to the upstream custody API (${baseUrl}) is not available in this version of the console; run with CUSTODY_BACKEND=sandbox`,
    );
  };
  return {
    kind: 'upstream',
    listTransactions: unavailable,
    getTransaction: unavailable,
    createTransaction: unavailable,
    replaceTransaction: unavailable,
    estimateFee: unavailable,
    listBankAccounts: unavailable,
    getBankAccount: unavailable,
    createBankAccount: unavailable,
    getApprovalMessage: unavailable,
    decideApproval: unavailable,
    listVaults: unavailable,
    getVault: unavailable,
    getVaultBalances: unavailable,
    listContacts: unavailable,
    getContact: unavailable,
    listAssets: unavailable,
    listSupportedChains: unavailable,
    listSubOrgs: unavailable,
  };
}
