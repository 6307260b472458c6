import { operationIdOf } from '#contract/operations.ts';
import { operationMessageToSign, updateUserAction } from '#contract/endpoints/operations.ts';
import { randomBytes } from 'node:crypto';
import {
  endpointKey,
  paramNames,
  pathOf,
  toQueryString,
  type Endpoint,
} from '#contract/endpoint.ts';
import {
  approvalCosts,
  approvalDecisions,
  approvalMessage,
  decideApproval,
} from '#contract/endpoints/approvals.ts';
import { approvalSigningChallenge } from '#contract/endpoints/approval-signatures.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import { createBankAccount } from '#contract/endpoints/bank-account-writes.ts';
import { findBankAccountMatches } from '#contract/endpoints/bank-accounts.ts';
import { listContacts } from '#contract/endpoints/contacts.ts';
import { ENDPOINTS } from '#contract/endpoints/index.ts';
import { listSubOrgs, listVaults } from '#contract/endpoints/reference.ts';
import {
  discardPolicyDraft,
  publishPolicyDraft,
  restorePolicyVersion,
  savePolicyDraft,
} from '#contract/endpoints/policies.ts';
import { DEFAULT_POLICY } from '#contract/policies.ts';
import {
  createApiUser,
  listApiUsers,
  revokeApiUser,
  rotateApiUserKey,
  setApiUserNetworks,
} from '#contract/endpoints/api-users.ts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  resendFailedWebhookDeliveries,
  resendWebhookDelivery,
  sendWebhookTestEvent,
  updateWebhookEndpoint,
} from '#contract/endpoints/webhooks.ts';
import {
  createChatTarget,
  deleteChatTarget,
  getSmtpSettings,
  listChatTargets,
  listNotificationDeliveries,
  retryNotificationDelivery,
  sendTestEmail,
  updateSmtpSettings,
} from '#contract/endpoints/notifications.ts';
import {
  createScimToken,
  getSsoSettings,
  revokeScimToken,
  updateSsoSettings,
} from '#contract/endpoints/sso.ts';
import { listAudit, updateStaff } from '#contract/endpoints/staff.ts';
import { stakedAmount } from '#contract/endpoints/transactions.ts';
import { getVaultDepositInstructions } from '#contract/endpoints/vaults.ts';
import {
  cancelScheduledTransaction,
  createTransaction,
  estimateFee,
  replaceTransaction,
} from '#contract/endpoints/transaction-writes.ts';
import { createContact, updateContact } from '#contract/endpoints/contact-writes.ts';
import {
  createSandboxSubOrg,
  depositToSandboxVault,
  expireSandboxRampQuote,
  passSandboxStakingEpochs,
  surgeSandboxFees,
} from '#contract/endpoints/sandbox-world.ts';
import { ledgerHistory, ledgerStatement } from '#contract/endpoints/ledger.ts';
import {
  exportJournal,
  getJournalMapping,
  listLedgerPeriods,
  proposeLedgerClose,
  setJournalMapping,
} from '#contract/endpoints/ledger-periods.ts';

/**
 * How the authorization matrix (`auth/authorization-matrix.test.ts`) calls
 * each endpoint: the cases (URL, body) and how the sub-org scope shows on
 * them. Every declared endpoint (contract/endpoints/) gets its row from its
 * declaration (`derivedCall`): its path filled with the target's ids, its
 * `subOrgId` filter, an empty body for a mutation. `OVERRIDES` holds only
 * the endpoints whose meaningful call needs more (a valid body, a listed
 * row to look for). Who may call is not here: the matrix reads it from the
 * mounted route's rule. Keyed as the app's routes are (`METHOD /path/:param/`);
 * a mounted route with a staff permission that is not declared fails the
 * matrix test.
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
  /** An API user held to this target's sub-org. */
  apiUserId: string;
}

/** How the scope shows on an endpoint once the role is allowed. */
export type ScopeKind =
  | 'filter' // ?subOrgId=: inside 200, outside 404
  | 'entity' // an id in the path: inside 200, outside 404
  | 'listed' // no filter: inside's row listed, outside's never
  | 'none' // not scoped (assets, chains, console admin pages): the same either way
  | 'unrestricted' // the organization's alone (the audit log): a restricted member is 403 OUTSIDE_ADMIN_SCOPE
  | 'granted' // grants the target's sub-org (an API user's): inside 2xx, outside 403 OUTSIDE_ADMIN_SCOPE
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

/** The target's id each path parameter names; an entity the targets do not hold fails here. */
const TARGET_IDS: Record<string, (t: Target, ctx: { staffId: string }) => string> = {
  transactionId: (t) => t.transactionId,
  bankAccountId: (t) => t.bankAccountId,
  vaultId: (t) => t.vaultId,
  contactId: (t) => t.contactId,
  subOrgId: (t) => t.subOrgId,
  // An approval card's item: the target's transaction stands for every kind.
  entityId: (t) => t.transactionId,
  approvalId: (t) => t.approvalId,
  // An operation is its transaction's (contract/operations.ts): the target's first.
  operationId: (t) => operationIdOf(t.transactionId, 1),
  staffId: (_t, ctx) => ctx.staffId,
  // A proposal nobody made: an admin gets 404 past the checks, others 403.
  proposalId: () => 'no-such-proposal',
  // Approval policies are the organization's, in no sub-org: the transactions policy, version 0.
  kind: () => 'transactions',
  version: () => '0',
  // Webhook endpoints are the organization's: a restricted admin is refused before any lookup.
  endpointId: () => 'whe_matrix',
  deliveryId: () => '1',
  // A member's own passkeys only: a passkey nobody registered is a 404 past the checks.
  passkeyId: () => 'no-such-passkey',
  // A payment run nobody made: a 404 past the checks (its scope is proven by its own route test).
  runId: () => 'no-such-run',
  // A payment run schedule nobody made: a 404 past the checks (scope: its own route test).
  scheduleId: () => 'no-such-schedule',
  // Single sign-on is the organization's: a restricted admin is refused before any lookup.
  tokenId: () => 'no-such-token',
  apiUserId: (t) => t.apiUserId,
  // Notification settings are the organization's: a restricted admin is refused before any lookup.
  targetId: () => 'no-such-chat',
  index: () => '1',
};
/** Path parameters that name something inside a sub-org: outside the member's, 404. */
const SCOPED_PARAMS = new Set([
  'transactionId',
  'bankAccountId',
  'vaultId',
  'contactId',
  'entityId',
  'operationId',
  'apiUserId',
]);

/**
 * The call a declaration implies: its path with the target's ids, the
 * target's sub-org when it filters by one, `{}` for a body (a refusal of it
 * is still a 4xx after the checks the matrix is about).
 */
export function derivedCall(e: Endpoint): Call {
  const names = paramNames(e.path);
  for (const name of names)
    if (!TARGET_IDS[name])
      throw new Error(`${endpointKey(e)}: the matrix has no target for :${name} (TARGET_IDS)`);
  const filters = e.query ? Object.keys(e.query._zod.def.shape).includes('subOrgId') : false;
  return {
    name: endpointKey(e),
    url: (t, ctx) =>
      `${pathOf(e, Object.fromEntries(names.map((n) => [n, TARGET_IDS[n]?.(t, ctx) ?? ''])))}${
        filters ? toQueryString({ subOrgId: t.subOrgId }) : ''
      }`,
    ...(e.body ? { body: () => ({}) } : {}),
    scope: names.some((n) => SCOPED_PARAMS.has(n)) ? 'entity' : filters ? 'filter' : 'none',
  };
}

const at = (e: Endpoint, params: Record<string, string> = {}, query = {}) =>
  `${pathOf(e, params)}${toQueryString(query)}`;

/** Endpoints whose meaningful call needs more than their declaration says. */
export const OVERRIDES: Record<string, Call[]> = {
  // A vault signer's (an API user's): a member in scope is refused as no signer, never 404.
  [endpointKey(operationMessageToSign)]: [
    {
      name: 'operation message',
      url: (t) => at(operationMessageToSign, { operationId: operationIdOf(t.transactionId, 1) }),
      scope: 'create',
    },
  ],
  [endpointKey(updateUserAction)]: [
    {
      name: 'operation user action',
      url: (t) => at(updateUserAction, { operationId: operationIdOf(t.transactionId, 1) }),
      body: () => ({ isApproved: true, signatureHex: '00' }),
      scope: 'create',
    },
  ],
  [endpointKey(createTransaction)]: [
    {
      name: 'create transfer from a vault',
      url: () => at(createTransaction),
      body: (t, home) => transfer(t.vaultId, home.contactId),
      scope: 'create',
    },
    {
      name: 'create transfer to a contact',
      url: () => at(createTransaction),
      body: (t, home) => transfer(home.vaultId, t.contactId),
      scope: 'create',
    },
  ],
  [endpointKey(replaceTransaction)]: [
    {
      name: 'replace transaction',
      url: () => at(replaceTransaction),
      body: (t) => ({ transactionId: t.transactionId }),
      scope: 'create',
    },
    {
      name: 'replace a payment to a contact',
      url: () => at(replaceTransaction),
      body: (t) => ({ transactionId: t.paymentToContactId }),
      scope: 'create',
    },
  ],
  [endpointKey(cancelScheduledTransaction)]: [
    {
      // The target was not scheduled: in scope it is refused for that (409), out of scope 404.
      name: 'cancel a scheduled transfer',
      url: (t) => at(cancelScheduledTransaction, { transactionId: t.transactionId }),
      scope: 'create',
    },
  ],
  [endpointKey(stakedAmount)]: [
    {
      name: 'staked amount of a vault',
      // The chain is required: what a vault has staked is per chain.
      url: (t) => at(stakedAmount, { vaultId: t.vaultId }, { blockChain: 'ETHEREUM' }),
      scope: 'entity',
    },
  ],
  [endpointKey(getVaultDepositInstructions)]: [
    {
      name: 'deposit instructions of a vault',
      // An asset and a chain are required: the instructions are for one asset, one way.
      url: (t) =>
        at(
          getVaultDepositInstructions,
          { vaultId: t.vaultId },
          { asset: 'ETH', chain: 'ETHEREUM' },
        ),
      scope: 'entity',
    },
  ],
  [endpointKey(estimateFee)]: [
    {
      name: 'estimate fee from a vault',
      url: () => at(estimateFee),
      body: (t, home) => transfer(t.vaultId, home.contactId),
      scope: 'create',
    },
    {
      name: 'estimate fee to a contact',
      url: () => at(estimateFee),
      body: (t, home) => transfer(home.vaultId, t.contactId),
      scope: 'create',
    },
  ],
  [endpointKey(createBankAccount)]: [
    {
      name: 'create bank account',
      url: () => at(createBankAccount),
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
  [endpointKey(createContact)]: [
    {
      name: 'propose contact',
      url: () => at(createContact),
      // A fresh address each call: a second proposal of one address is refused as a duplicate.
      body: (t) => ({
        name: 'Matrix desk',
        blockChain: 'ETHEREUM',
        address: `0x${randomBytes(20).toString('hex')}`,
        subOrgId: t.subOrgId,
      }),
      scope: 'create',
    },
  ],
  [endpointKey(updateContact)]: [
    {
      name: 'change contact assets',
      // The first allowed member in scope proposes it; later ones hear CHANGE_PENDING, never 404.
      url: (t) => at(updateContact, { contactId: t.contactId }),
      body: () => ({ assetList: ['ETH'] }),
      scope: 'create',
    },
  ],
  [endpointKey(approvalMessage)]: [
    {
      name: 'approval message',
      url: (t) => at(approvalMessage, {}, { entityId: t.bankAccountId }),
      scope: 'create',
    },
  ],
  [endpointKey(decideApproval)]: [
    {
      name: 'approval action',
      // The first allowed member in scope rejects it; later ones get 409 (decided), never 401/403/404.
      url: (t) => at(decideApproval, { approvalId: t.approvalId }),
      body: () => ({ action: 'reject', reason: 'matrix' }),
      scope: 'create',
    },
  ],
  [endpointKey(listVaults)]: [
    { name: 'list vaults', url: () => at(listVaults), scope: 'listed', listedId: (t) => t.vaultId },
  ],
  [endpointKey(listContacts)]: [
    {
      name: 'list contacts',
      url: () => at(listContacts),
      scope: 'listed',
      listedId: (t) => t.contactId,
    },
  ],
  [endpointKey(listSubOrgs)]: [
    {
      name: 'list sub-orgs',
      url: () => at(listSubOrgs),
      scope: 'listed',
      listedId: (t) => t.subOrgId,
    },
  ],
  [endpointKey(updateStaff)]: [
    {
      name: 'update staff',
      url: (_t, c) => at(updateStaff, { staffId: c.staffId }),
      body: () => ({ name: 'Renamed' }),
      scope: 'none',
    },
  ],
  // Approval policies govern every sub-org: only an unrestricted admin changes one.
  [endpointKey(savePolicyDraft)]: [
    {
      name: 'save a policy draft',
      url: () => at(savePolicyDraft, { kind: 'transactions' }),
      body: () => ({ policy: DEFAULT_POLICY, revision: 0 }),
      scope: 'unrestricted',
    },
  ],
  [endpointKey(discardPolicyDraft)]: [
    {
      name: 'discard the policy draft',
      url: () => at(discardPolicyDraft, { kind: 'transactions' }),
      scope: 'unrestricted',
    },
  ],
  [endpointKey(publishPolicyDraft)]: [
    {
      name: 'publish the policy draft',
      url: () => at(publishPolicyDraft, { kind: 'transactions' }),
      body: () => ({ revision: 1 }),
      scope: 'unrestricted',
    },
  ],
  [endpointKey(restorePolicyVersion)]: [
    {
      name: 'restore a policy version',
      url: () => at(restorePolicyVersion, { kind: 'transactions', version: '0' }),
      scope: 'unrestricted',
    },
  ],
  [endpointKey(listAudit)]: [
    { name: 'audit log', url: () => at(listAudit), scope: 'unrestricted' },
  ],
  // A ledger period and the journal are the whole organization's: refused before the body is read.
  ...Object.fromEntries(
    [
      listLedgerPeriods,
      proposeLedgerClose,
      getJournalMapping,
      setJournalMapping,
      exportJournal,
    ].map((e) => [endpointKey(e), [{ ...derivedCall(e), scope: 'unrestricted' as const }]]),
  ),
  // Webhook endpoints receive every sub-org's events: only an unrestricted admin manages them.
  ...Object.fromEntries(
    [
      listWebhookEndpoints,
      deleteWebhookEndpoint,
      listWebhookDeliveries,
      resendWebhookDelivery,
      resendFailedWebhookDeliveries,
      sendWebhookTestEvent,
    ].map((e) => [endpointKey(e), [{ ...derivedCall(e), scope: 'unrestricted' as const }]]),
  ),
  // Notifications name every sub-org's items: only an unrestricted admin manages their settings.
  ...Object.fromEntries(
    [
      getSmtpSettings,
      listChatTargets,
      deleteChatTarget,
      listNotificationDeliveries,
      retryNotificationDelivery,
    ].map((e) => [endpointKey(e), [{ ...derivedCall(e), scope: 'unrestricted' as const }]]),
  ),
  [endpointKey(updateSmtpSettings)]: [
    {
      name: 'set the SMTP server',
      url: () => at(updateSmtpSettings),
      // Port 9 (discard) on loopback: a test email the matrix sends is refused at once.
      body: () => ({
        host: '127.0.0.1',
        port: 9,
        security: 'NONE',
        fromAddress: 'console@example.com',
        enabled: false,
      }),
      scope: 'unrestricted',
    },
  ],
  [endpointKey(sendTestEmail)]: [
    {
      name: 'send a test email',
      url: () => at(sendTestEmail),
      body: () => ({ to: 'matrix@example.com' }),
      scope: 'unrestricted',
    },
  ],
  [endpointKey(createChatTarget)]: [
    {
      name: "add a team's chat webhook",
      url: () => at(createChatTarget),
      body: () => ({ subOrgId: null, url: 'https://hooks.example.com/chat', format: 'SLACK' }),
      scope: 'unrestricted',
    },
  ],
  [endpointKey(createWebhookEndpoint)]: [
    {
      name: 'register a webhook endpoint',
      url: () => at(createWebhookEndpoint),
      body: () => ({
        url: 'https://hooks.example.com/custody',
        events: ['TRANSACTION_STATUS_CHANGED'],
      }),
      scope: 'unrestricted',
    },
  ],
  [endpointKey(updateWebhookEndpoint)]: [
    {
      name: 'turn a webhook endpoint off',
      url: () => at(updateWebhookEndpoint, { endpointId: 'whe_matrix' }),
      body: () => ({ enabled: false }),
      scope: 'unrestricted',
    },
  ],
  // Single sign-on decides who enters every sub-organization: only an unrestricted admin manages it.
  ...Object.fromEntries(
    [getSsoSettings, revokeScimToken].map((e) => [
      endpointKey(e),
      [{ ...derivedCall(e), scope: 'unrestricted' as const }],
    ]),
  ),
  [endpointKey(createScimToken)]: [
    {
      name: 'make a SCIM token',
      url: () => at(createScimToken),
      body: () => ({ name: 'Matrix IdP' }),
      scope: 'unrestricted',
    },
  ],
  [endpointKey(updateSsoSettings)]: [
    {
      name: 'set up single sign-on',
      url: () => at(updateSsoSettings),
      body: () => ({
        enabled: false,
        label: 'Matrix',
        issuer: 'https://idp.example.com',
        clientId: 'console',
        clientSecret: 'matrix secret',
        passwordSignIn: 'everyone',
        breakGlassEmail: null,
        groups: [],
      }),
      scope: 'unrestricted',
    },
  ],
  // API users are managed within the admin's sub-orgs: another's is 404, granting another's 403.
  [endpointKey(listApiUsers)]: [
    {
      name: 'list API users',
      url: () => at(listApiUsers),
      scope: 'listed',
      listedId: (t) => t.apiUserId,
    },
  ],
  [endpointKey(createApiUser)]: [
    {
      name: 'make an API user',
      url: () => at(createApiUser),
      body: (t) => ({
        name: 'Matrix bot',
        scope: 'read_only',
        subOrgIds: [t.subOrgId],
        allowedCidrs: ['192.0.2.0/24'],
        expiresAt: null,
      }),
      scope: 'granted',
    },
  ],
  [endpointKey(rotateApiUserKey)]: [
    {
      // Revoked by the time a later role reaches it: 409 then, never 404 inside.
      name: "rotate an API user's key",
      url: (t) => at(rotateApiUserKey, { apiUserId: t.apiUserId }),
      body: () => ({}),
      scope: 'create',
    },
  ],
  [endpointKey(setApiUserNetworks)]: [
    {
      // Anywhere, as it was made: the cell changes nothing any other cell relies on.
      name: "set an API user's networks",
      url: (t) => at(setApiUserNetworks, { apiUserId: t.apiUserId }),
      body: () => ({ allowedCidrs: null }),
      scope: 'create',
    },
  ],
  [endpointKey(revokeApiUser)]: [
    {
      name: 'revoke an API user',
      url: (t) => at(revokeApiUser, { apiUserId: t.apiUserId }),
      scope: 'create',
    },
  ],
  // A sub-organization is the organization's: only an unrestricted admin makes one.
  [endpointKey(createSandboxSubOrg)]: [
    {
      name: 'make a sandbox sub-organization',
      url: () => at(createSandboxSubOrg),
      body: () => ({ name: 'Matrix desk' }),
      scope: 'unrestricted',
    },
  ],
  [endpointKey(depositToSandboxVault)]: [
    {
      name: 'deposit into a sandbox vault',
      url: (t) => at(depositToSandboxVault, { vaultId: t.vaultId }),
      body: () => ({ asset: 'ETH', chain: 'ETHEREUM', amount: '1' }),
      scope: 'create',
    },
  ],
  [endpointKey(expireSandboxRampQuote)]: [
    {
      // The target's transaction is no ramp: in scope it reaches the sandbox (409), outside 404.
      name: "expire a sandbox ramp's quote",
      url: (t) => at(expireSandboxRampQuote, { transactionId: t.transactionId }),
      body: () => ({}),
      scope: 'create',
    },
  ],
  [endpointKey(passSandboxStakingEpochs)]: [
    {
      // The matrix's vault stakes nothing: in scope it reaches the sandbox (409), outside 404.
      name: 'pass a sandbox vault’s staking epochs',
      url: (t) => at(passSandboxStakingEpochs, { vaultId: t.vaultId }),
      body: () => ({ chain: 'TRON', epochs: 1 }),
      scope: 'create',
    },
  ],
  [endpointKey(surgeSandboxFees)]: [
    {
      name: 'surge a sandbox sub-organization’s fees',
      url: (t) => at(surgeSandboxFees, { subOrgId: t.subOrgId }),
      // Ends at once (a factor of 1): the matrix's items keep the market's own fees.
      body: () => ({
        chain: 'ETHEREUM',
        factor: '1',
        // Half a day ahead of the real time the matrix's clock starts at: after its now, within a day.
        until: new Date(Date.now() + 12 * 3_600_000).toISOString(),
      }),
      scope: 'entity',
    },
  ],
  [endpointKey(approvalDecisions)]: [
    {
      // Scoped (a desk's decisions are hidden from another); the matrix's targets are undecided, so both answer an empty list.
      name: 'approval decisions',
      url: (t) => at(approvalDecisions, {}, { entityIds: `${t.transactionId},${t.bankAccountId}` }),
      scope: 'none',
    },
  ],
  [endpointKey(approvalSigningChallenge)]: [
    {
      name: 'approval signing challenge',
      // Over a card nobody was shown: in scope the checks pass and the card answers 409
      // CARD_CHANGED; outside, the item is not found.
      url: (t) => at(approvalSigningChallenge, { entityId: t.transactionId }),
      body: () => ({ action: 'approve', digest: '0'.repeat(64) }),
      scope: 'create',
    },
  ],
  [endpointKey(decideApprovable)]: [
    {
      // For a kind the console holds itself, of which production has none yet: a transaction
      // is no such item, in scope or out (404 either way). A held item's scope is its kind's
      // read, proven with a test-only kind (test/approvable-kind/).
      name: 'held approvable decision',
      url: (t) => at(decideApprovable, { entityId: t.transactionId }),
      body: () => ({ action: 'approve' }),
      scope: 'none',
    },
  ],
  [endpointKey(approvalCosts)]: [
    {
      // Scoped: a transaction outside the member's scope is left out of the answer, proven in
      // approvals/cost.routes.test.ts; either way the answer is 200.
      name: 'approval costs',
      url: (t) => at(approvalCosts, {}, { entityIds: t.transactionId }),
      scope: 'none',
    },
  ],
  // A vault's ledger is the vault's (404 outside); a sub-organization's is a filter.
  [endpointKey(ledgerHistory)]: [
    {
      name: 'vault history',
      url: (t) => at(ledgerHistory, {}, { days: '30', vaultId: t.vaultId }),
      scope: 'entity',
    },
    {
      name: 'sub-organization history',
      url: (t) => at(ledgerHistory, {}, { days: '7', subOrgId: t.subOrgId }),
      scope: 'filter',
    },
  ],
  [endpointKey(ledgerStatement)]: [
    {
      name: 'vault statement',
      url: (t) =>
        at(
          ledgerStatement,
          {},
          {
            vaultId: t.vaultId,
            from: '2020-01-01T00:00:00Z',
            to: '2020-12-31T00:00:00Z',
          },
        ),
      scope: 'entity',
    },
    {
      name: 'sub-organization statement',
      url: (t) =>
        at(
          ledgerStatement,
          {},
          {
            subOrgId: t.subOrgId,
            from: '2020-01-01T00:00:00Z',
            to: '2020-12-31T00:00:00Z',
          },
        ),
      scope: 'filter',
    },
  ],
  [endpointKey(findBankAccountMatches)]: [
    {
      name: 'identical bank accounts',
      body: () => ({
        paymentMethod: 'US_ACH',
        accountNumber: '11112222',
        routingNumber: '021000021',
      }),
      url: () => at(findBankAccountMatches),
      // Scoped as the lists are; the targets' accounts are decided by earlier cells,
      // so the scope is proven in bank-account-matches.routes.test.ts instead.
      scope: 'none',
    },
  ],
};

/** Every declared endpoint held to a staff permission, with its calls. */
export const CALLS: Record<string, Call[]> = Object.fromEntries(
  ENDPOINTS.filter((e) => e.permission !== 'public').map((e) => [
    endpointKey(e),
    OVERRIDES[endpointKey(e)] ?? [derivedCall(e)],
  ]),
);
