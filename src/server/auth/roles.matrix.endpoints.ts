import type { StaffRole } from '../../contract/auth.ts';
import { paths } from '../../contract/paths.ts';
import { REVEAL_ROLES, type Permission } from './roles.ts';

/**
 * The rows of the authorization matrix (roles.matrix.test.ts): every endpoint
 * a session may call, who may call it, and how the sub-org scope shows on it.
 * Add a row when an endpoint is added.
 */

export interface Target {
  subOrgId: string;
  transactionId: string;
  bankAccountId: string;
  vaultId: string;
  contactId: string;
  /** The pending approval of the bank account's change request. */
  approvalId: string;
  /** A transaction from the in-scope vault to this target's contact. */
  paymentToContactId: string;
}

/** How the scope shows on an endpoint once the role is allowed. */
export type ScopeKind =
  | 'filter' // ?subOrgId=: inside 200, outside 404
  | 'entity' // an id in the path: inside 200, outside 404
  | 'listed' // no filter: inside's row listed, outside's never
  | 'none' // not scoped (assets, chains, console admin pages): the same either way
  | 'create'; // a mutation naming scoped things: inside reaches the engine (its own answer, never 404), outside 404

export interface Endpoint {
  name: string;
  method: 'GET' | 'POST' | 'PATCH';
  url(target: Target, ctx: { staffId: string }): string;
  /** `home` is always the in-scope target: rows about one party keep the others at home. */
  body?(target: Target, home: Target): unknown;
  /** Who may call it: a permission from roles.ts, or an explicit list of roles. */
  allowed: Permission | readonly StaffRole[];
  scope: ScopeKind;
  /** For 'listed': the id the row carries. */
  listedId?(target: Target): string;
}

function transfer(vaultId: string, contactId: string) {
  return {
    category: 'TRANSFER',
    source: { type: 'VAULT', id: vaultId },
    destination: { type: 'CONTACT', id: contactId },
    blockChain: 'ETHEREUM',
    asset: 'ETH',
    amount: '0.01',
  };
}

export const ENDPOINTS: Endpoint[] = [
  {
    name: 'list transactions',
    method: 'GET',
    url: (t) => `${paths.transactions()}?subOrgId=${t.subOrgId}`,
    allowed: 'read',
    scope: 'filter',
  },
  {
    name: 'get transaction',
    method: 'GET',
    url: (t) => paths.transaction(t.transactionId),
    allowed: 'read',
    scope: 'entity',
  },
  {
    name: 'create transfer from a vault',
    method: 'POST',
    url: () => paths.transactions(),
    body: (t, home) => transfer(t.vaultId, home.contactId),
    allowed: 'initiate',
    scope: 'create',
  },
  {
    name: 'create transfer to a contact',
    method: 'POST',
    url: () => paths.transactions(),
    body: (t, home) => transfer(home.vaultId, t.contactId),
    allowed: 'initiate',
    scope: 'create',
  },
  {
    name: 'replace transaction',
    method: 'POST',
    url: () => paths.replaceTransaction(),
    body: (t) => ({ transactionId: t.transactionId }),
    allowed: 'initiate',
    scope: 'create',
  },
  {
    name: 'replace a payment to a contact',
    method: 'POST',
    url: () => paths.replaceTransaction(),
    body: (t) => ({ transactionId: t.paymentToContactId }),
    allowed: 'initiate',
    scope: 'create',
  },
  {
    name: 'estimate fee from a vault',
    method: 'POST',
    url: () => paths.estimateFee(),
    body: (t, home) => transfer(t.vaultId, home.contactId),
    allowed: 'initiate',
    scope: 'create',
  },
  {
    name: 'estimate fee to a contact',
    method: 'POST',
    url: () => paths.estimateFee(),
    body: (t, home) => transfer(home.vaultId, t.contactId),
    allowed: 'initiate',
    scope: 'create',
  },
  {
    name: 'list bank accounts',
    method: 'GET',
    url: (t) => `${paths.bankAccounts()}?subOrgId=${t.subOrgId}`,
    allowed: 'read',
    scope: 'filter',
  },
  {
    name: 'get bank account',
    method: 'GET',
    url: (t) => paths.bankAccount(t.bankAccountId),
    allowed: 'read',
    scope: 'entity',
  },
  {
    name: 'create bank account',
    method: 'POST',
    url: () => paths.bankAccounts(),
    body: (t) => ({
      paymentMethod: 'US_ACH',
      subOrgId: t.subOrgId,
      accountName: 'Matrix',
      accountNumber: '000123456789',
      routingNumber: '021000021',
      bankName: 'Bank',
      country: 'US',
    }),
    allowed: 'initiate',
    scope: 'create',
  },
  {
    name: 'approval message',
    method: 'GET',
    url: (t) => `${paths.approvalMessage()}?entityId=${t.bankAccountId}`,
    allowed: 'approve',
    scope: 'create',
  },
  {
    name: 'approval action',
    method: 'POST',
    // The first allowed member in scope rejects it; later ones get 409 (decided), never 401/403/404.
    url: (t) => paths.approvalAction(t.approvalId),
    body: () => ({ action: 'reject', reason: 'matrix' }),
    allowed: 'approve',
    scope: 'create',
  },
  {
    name: 'list vaults',
    method: 'GET',
    url: () => paths.vaults(),
    allowed: 'read',
    scope: 'listed',
    listedId: (t) => t.vaultId,
  },
  {
    name: 'get vault',
    method: 'GET',
    url: (t) => paths.vault(t.vaultId),
    allowed: 'read',
    scope: 'entity',
  },
  {
    name: 'vault balances',
    method: 'GET',
    url: (t) => paths.vaultBalances(t.vaultId),
    allowed: 'read',
    scope: 'entity',
  },
  {
    name: 'list contacts',
    method: 'GET',
    url: () => paths.contacts(),
    allowed: 'read',
    scope: 'listed',
    listedId: (t) => t.contactId,
  },
  { name: 'list assets', method: 'GET', url: () => paths.assets(), allowed: 'read', scope: 'none' },
  {
    name: 'supported chains',
    method: 'GET',
    url: () => paths.supportedChains(),
    allowed: 'read',
    scope: 'none',
  },
  {
    name: 'list sub-orgs',
    method: 'GET',
    url: () => paths.subOrgs(),
    allowed: 'read',
    scope: 'listed',
    listedId: (t) => t.subOrgId,
  },
  {
    name: 'list staff',
    method: 'GET',
    url: () => '/api/console/staff/',
    allowed: ['admin'],
    scope: 'none',
  },
  {
    name: 'create staff',
    method: 'POST',
    url: () => '/api/console/staff/',
    body: () => ({}),
    allowed: ['admin'],
    scope: 'none',
  },
  {
    name: 'update staff',
    method: 'PATCH',
    url: (_t, c) => `/api/console/staff/${c.staffId}/`,
    body: () => ({ name: 'Renamed' }),
    allowed: ['admin'],
    scope: 'none',
  },
  {
    name: 'audit log',
    method: 'GET',
    url: () => '/api/console/audit/',
    allowed: ['admin'],
    scope: 'none',
  },
  {
    // Scoped (a desk's decisions are hidden from another); the matrix's targets are undecided, so both answer an empty list.
    name: 'approval decisions',
    method: 'GET',
    url: (t) => `/api/console/approval_decisions/?entityIds=${t.transactionId},${t.bankAccountId}`,
    allowed: 'read',
    scope: 'none',
  },
  {
    name: 'reveal account number',
    method: 'GET',
    url: (t) => `/api/console/bank_accounts/${t.bankAccountId}/reveal/`,
    allowed: REVEAL_ROLES,
    scope: 'entity',
  },
  {
    name: 'bank account history',
    method: 'GET',
    url: (t) => `/api/console/bank_accounts/${t.bankAccountId}/history/`,
    allowed: 'read',
    scope: 'entity',
  },
];
