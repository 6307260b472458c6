import { API_PREFIX, pathOf, toQueryString } from './endpoint.ts';
import { approvalMessage, decideApproval } from './endpoints/approvals.ts';
import { getBankAccount, listBankAccounts } from './endpoints/bank-accounts.ts';
import { listContacts } from './endpoints/contacts.ts';
import * as reference from './endpoints/reference.ts';
import { estimateFee, replaceTransaction } from './endpoints/transaction-writes.ts';
import { getTransaction, listTransactions } from './endpoints/transactions.ts';

/**
 * Concrete custody API URLs (ids encoded), for the server's tests, the
 * bench and the upstream client: each derived from its endpoint's
 * declaration (contract/endpoints/), which is where a path is written. The
 * server mounts the declarations and the SPA calls them (`apiClient.call`);
 * neither needs this table.
 */

export { API_PREFIX, toQueryString };

export const paths = {
  bankAccounts: () => pathOf(listBankAccounts),
  bankAccount: (bankAccountId: string) => pathOf(getBankAccount, { bankAccountId }),
  transactions: () => pathOf(listTransactions),
  transaction: (transactionId: string) => pathOf(getTransaction, { transactionId }),
  replaceTransaction: () => pathOf(replaceTransaction),
  estimateFee: () => pathOf(estimateFee),
  approvalMessage: () => pathOf(approvalMessage),
  approvalAction: (approvalId: string) => pathOf(decideApproval, { approvalId }),
  vaults: () => pathOf(reference.listVaults),
  vault: (vaultId: string) => pathOf(reference.getVault, { vaultId }),
  vaultBalances: (vaultId: string) => pathOf(reference.getVaultBalances, { vaultId }),
  contacts: () => pathOf(listContacts),
  assets: () => pathOf(reference.listAssets),
  supportedChains: () => pathOf(reference.listSupportedChains),
  subOrgs: () => pathOf(reference.listSubOrgs),
} as const;

const relative = (e: { path: string }) => e.path.slice(API_PREFIX.length);

/** The same paths as patterns relative to `API_PREFIX` (`/transactions/:transactionId/`). */
export const routes = {
  bankAccounts: relative(listBankAccounts),
  bankAccount: relative(getBankAccount),
  transactions: relative(listTransactions),
  transaction: relative(getTransaction),
  replaceTransaction: relative(replaceTransaction),
  estimateFee: relative(estimateFee),
  approvalMessage: relative(approvalMessage),
  approvalAction: relative(decideApproval),
  vaults: relative(reference.listVaults),
  vault: relative(reference.getVault),
  vaultBalances: relative(reference.getVaultBalances),
  contacts: relative(listContacts),
  assets: relative(reference.listAssets),
  supportedChains: relative(reference.listSupportedChains),
  subOrgs: relative(reference.listSubOrgs),
} as const;
