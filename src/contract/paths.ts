/**
 * Every custody API path, with the trailing slash the API requires.
 * `paths` builds concrete URLs (ids encoded); `routes` are the same paths as
 * Hono patterns for the server.
 */

export const API_PREFIX = '/api/external';

const seg = (id: string) => encodeURIComponent(id);

export const paths = {
  bankAccounts: () => `${API_PREFIX}/bank_accounts/`,
  bankAccount: (bankAccountId: string) => `${API_PREFIX}/bank_accounts/${seg(bankAccountId)}/`,
  transactions: () => `${API_PREFIX}/transactions/`,
  transaction: (transactionId: string) => `${API_PREFIX}/transactions/${seg(transactionId)}/`,
  replaceTransaction: () => `${API_PREFIX}/transactions/replace_transaction/`,
  estimateFee: () => `${API_PREFIX}/transactions/estimate_fee/`,
  approvalMessage: () => `${API_PREFIX}/change_requests/approvals/approval_message/`,
  approvalAction: (approvalId: string) =>
    `${API_PREFIX}/change_requests/approvals/${seg(approvalId)}/action/`,
  vaults: () => `${API_PREFIX}/vaults/`,
  vault: (vaultId: string) => `${API_PREFIX}/vaults/${seg(vaultId)}/`,
  vaultBalances: (vaultId: string) => `${API_PREFIX}/vaults/${seg(vaultId)}/balances/`,
  contacts: () => `${API_PREFIX}/contacts/`,
  assets: () => `${API_PREFIX}/assets/`,
  supportedChains: () => `${API_PREFIX}/assets/supported_chains/`,
  subOrgs: () => `${API_PREFIX}/sub_orgs/`,
} as const;

/** Hono route patterns relative to API_PREFIX. */
export const routes = {
  bankAccounts: '/bank_accounts/',
  bankAccount: '/bank_accounts/:bankAccountId/',
  transactions: '/transactions/',
  transaction: '/transactions/:transactionId/',
  replaceTransaction: '/transactions/replace_transaction/',
  estimateFee: '/transactions/estimate_fee/',
  approvalMessage: '/change_requests/approvals/approval_message/',
  approvalAction: '/change_requests/approvals/:approvalId/action/',
  vaults: '/vaults/',
  vault: '/vaults/:vaultId/',
  vaultBalances: '/vaults/:vaultId/balances/',
  contacts: '/contacts/',
  assets: '/assets/',
  supportedChains: '/assets/supported_chains/',
  subOrgs: '/sub_orgs/',
} as const;

/** Builds a query string from defined, non-empty values, in a stable key order. */
export function toQueryString(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const key of Object.keys(params).sort()) {
    const value = params[key];
    if (value === undefined || value === null || value === '') continue;
    search.set(key, String(value));
  }
  const s = search.toString();
  return s ? `?${s}` : '';
}
