import { API_PREFIX, paths, routes } from '../../contract/paths.ts';

/**
 * How the authorization matrix (`auth/authorization-matrix.test.ts`) calls
 * each route: the cases (URL, body) and how the sub-org scope shows on them.
 * Who may call a route is not here: the matrix reads it from the route's own
 * rule. Keyed by the route as mounted (`METHOD /path/:param/`); a route with
 * a staff permission and no entry here fails the matrix test.
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
  | 'unrestricted' // the organization's alone (the audit log): a restricted member is 403 OUTSIDE_ADMIN_SCOPE
  | 'create'; // a mutation naming scoped things: inside reaches the engine (its own answer, never 404), outside 404

export interface Call {
  name: string;
  url(target: Target, ctx: { staffId: string }): string;
  /** `home` is always the in-scope target: rows about one party keep the others at home. */
  body?(target: Target, home: Target): unknown;
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

const custody = (method: string, route: keyof typeof routes) =>
  `${method} ${API_PREFIX}${routes[route]}`;

export const CALLS: Record<string, Call[]> = {
  [custody('GET', 'transactions')]: [
    {
      name: 'list transactions',
      url: (t) => `${paths.transactions()}?subOrgId=${t.subOrgId}`,
      scope: 'filter',
    },
  ],
  [custody('GET', 'transaction')]: [
    { name: 'get transaction', url: (t) => paths.transaction(t.transactionId), scope: 'entity' },
  ],
  [custody('POST', 'transactions')]: [
    {
      name: 'create transfer from a vault',
      url: () => paths.transactions(),
      body: (t, home) => transfer(t.vaultId, home.contactId),
      scope: 'create',
    },
    {
      name: 'create transfer to a contact',
      url: () => paths.transactions(),
      body: (t, home) => transfer(home.vaultId, t.contactId),
      scope: 'create',
    },
  ],
  [custody('POST', 'replaceTransaction')]: [
    {
      name: 'replace transaction',
      url: () => paths.replaceTransaction(),
      body: (t) => ({ transactionId: t.transactionId }),
      scope: 'create',
    },
    {
      name: 'replace a payment to a contact',
      url: () => paths.replaceTransaction(),
      body: (t) => ({ transactionId: t.paymentToContactId }),
      scope: 'create',
    },
  ],
  [custody('POST', 'estimateFee')]: [
    {
      name: 'estimate fee from a vault',
      url: () => paths.estimateFee(),
      body: (t, home) => transfer(t.vaultId, home.contactId),
      scope: 'create',
    },
    {
      name: 'estimate fee to a contact',
      url: () => paths.estimateFee(),
      body: (t, home) => transfer(home.vaultId, t.contactId),
      scope: 'create',
    },
  ],
  [custody('GET', 'bankAccounts')]: [
    {
      name: 'list bank accounts',
      url: (t) => `${paths.bankAccounts()}?subOrgId=${t.subOrgId}`,
      scope: 'filter',
    },
  ],
  [custody('GET', 'bankAccount')]: [
    { name: 'get bank account', url: (t) => paths.bankAccount(t.bankAccountId), scope: 'entity' },
  ],
  [custody('POST', 'bankAccounts')]: [
    {
      name: 'create bank account',
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
      scope: 'create',
    },
  ],
  [custody('GET', 'approvalMessage')]: [
    {
      name: 'approval message',
      url: (t) => `${paths.approvalMessage()}?entityId=${t.bankAccountId}`,
      scope: 'create',
    },
  ],
  [custody('POST', 'approvalAction')]: [
    {
      name: 'approval action',
      // The first allowed member in scope rejects it; later ones get 409 (decided), never 401/403/404.
      url: (t) => paths.approvalAction(t.approvalId),
      body: () => ({ action: 'reject', reason: 'matrix' }),
      scope: 'create',
    },
  ],
  [custody('GET', 'vaults')]: [
    { name: 'list vaults', url: () => paths.vaults(), scope: 'listed', listedId: (t) => t.vaultId },
  ],
  [custody('GET', 'vault')]: [
    { name: 'get vault', url: (t) => paths.vault(t.vaultId), scope: 'entity' },
  ],
  [custody('GET', 'vaultBalances')]: [
    { name: 'vault balances', url: (t) => paths.vaultBalances(t.vaultId), scope: 'entity' },
  ],
  [custody('GET', 'contacts')]: [
    {
      name: 'list contacts',
      url: () => paths.contacts(),
      scope: 'listed',
      listedId: (t) => t.contactId,
    },
  ],
  [custody('GET', 'assets')]: [{ name: 'list assets', url: () => paths.assets(), scope: 'none' }],
  [custody('GET', 'supportedChains')]: [
    { name: 'supported chains', url: () => paths.supportedChains(), scope: 'none' },
  ],
  [custody('GET', 'subOrgs')]: [
    {
      name: 'list sub-orgs',
      url: () => paths.subOrgs(),
      scope: 'listed',
      listedId: (t) => t.subOrgId,
    },
  ],
  'GET /api/console/backend': [
    { name: 'backend badge', url: () => '/api/console/backend', scope: 'none' },
  ],
  'GET /api/openapi.json': [
    { name: 'OpenAPI document', url: () => '/api/openapi.json', scope: 'none' },
  ],
  'GET /api/console/staff/': [
    { name: 'list staff', url: () => '/api/console/staff/', scope: 'none' },
  ],
  'POST /api/console/staff/': [
    { name: 'create staff', url: () => '/api/console/staff/', body: () => ({}), scope: 'none' },
  ],
  'PATCH /api/console/staff/:staffId/': [
    {
      name: 'update staff',
      url: (_t, c) => `/api/console/staff/${c.staffId}/`,
      body: () => ({ name: 'Renamed' }),
      scope: 'none',
    },
  ],
  // The caller's own account: every role, and nobody else's.
  'GET /api/console/account/second-factor/': [
    { name: 'own second factor', url: () => '/api/console/account/second-factor/', scope: 'none' },
  ],
  'POST /api/console/account/second-factor/enrolment/': [
    {
      name: 'start a second-factor set-up',
      url: () => '/api/console/account/second-factor/enrolment/',
      body: () => ({}),
      scope: 'none',
    },
  ],
  'POST /api/console/account/second-factor/enrolment/confirm/': [
    {
      name: 'confirm a second-factor set-up',
      url: () => '/api/console/account/second-factor/enrolment/confirm/',
      body: () => ({}),
      scope: 'none',
    },
  ],
  'POST /api/console/account/recovery-codes/': [
    {
      name: 'replace recovery codes',
      url: () => '/api/console/account/recovery-codes/',
      body: () => ({}),
      scope: 'none',
    },
  ],
  'POST /api/console/account/password/': [
    {
      name: 'change own password',
      url: () => '/api/console/account/password/',
      body: () => ({}),
      scope: 'none',
    },
  ],
  'PATCH /api/console/account/display/': [
    {
      name: 'change own display settings',
      url: () => '/api/console/account/display/',
      body: () => ({}),
      scope: 'none',
    },
  ],
  'GET /api/console/audit/': [
    { name: 'audit log', url: () => '/api/console/audit/', scope: 'unrestricted' },
  ],
  'GET /api/console/approval_decisions/': [
    {
      // Scoped (a desk's decisions are hidden from another); the matrix's targets are undecided, so both answer an empty list.
      name: 'approval decisions',
      url: (t) =>
        `/api/console/approval_decisions/?entityIds=${t.transactionId},${t.bankAccountId}`,
      scope: 'none',
    },
  ],
  'GET /api/console/approvals/': [
    {
      name: 'approvals inbox',
      url: (t) => `/api/console/approvals/?subOrgId=${t.subOrgId}`,
      scope: 'filter',
    },
  ],
  'POST /api/console/bank_accounts/:bankAccountId/reveal/': [
    {
      name: 'reveal account number',
      body: () => ({}),
      url: (t) => `/api/console/bank_accounts/${t.bankAccountId}/reveal/`,
      scope: 'entity',
    },
  ],
  'POST /api/console/bank_accounts/matches/': [
    {
      name: 'identical bank accounts',
      body: () => ({
        paymentMethod: 'US_ACH',
        accountNumber: '11112222',
        routingNumber: '021000021',
      }),
      url: () => '/api/console/bank_accounts/matches/',
      // Scoped as the lists are; the targets' accounts are decided by earlier cells,
      // so the scope is proven in bank-account-matches.routes.test.ts instead.
      scope: 'none',
    },
  ],
  'GET /api/console/bank_accounts/:bankAccountId/history/': [
    {
      name: 'bank account history',
      url: (t) => `/api/console/bank_accounts/${t.bankAccountId}/history/`,
      scope: 'entity',
    },
  ],
  'GET /api/console/transactions/:transactionId/history/': [
    {
      name: 'transaction history',
      url: (t) => `/api/console/transactions/${t.transactionId}/history/`,
      scope: 'entity',
    },
  ],
};
