/** Stable machine-readable error codes the sandbox and the console server answer with. */
export const ERROR_CODES = {
  validation: 'VALIDATION_ERROR',
  invalidLimit: 'INVALID_LIMIT',
  invalidCursor: 'INVALID_CURSOR',
  invalidFilter: 'INVALID_FILTER',
  invalidJson: 'INVALID_JSON',
  bodyTooLarge: 'BODY_TOO_LARGE',
  notFound: 'NOT_FOUND',
  routeNotFound: 'ROUTE_NOT_FOUND',
  methodNotAllowed: 'METHOD_NOT_ALLOWED',
  duplicateExternalId: 'DUPLICATE_EXTERNAL_ID',
  conflict: 'CONFLICT',
  unauthorized: 'UNAUTHORIZED',
  forbidden: 'FORBIDDEN',
  // Staff sessions: a role without the route's permission, a mutation without its CSRF token
  // or from another origin, too many failed sign-ins, an admin locking themselves out.
  forbiddenRole: 'FORBIDDEN_ROLE',
  csrfRejected: 'CSRF_REJECTED',
  loginRateLimited: 'LOGIN_RATE_LIMITED',
  /** Too many sign-ins are being checked at once on this server: try again after Retry-After. */
  signInBusy: 'SIGN_IN_BUSY',
  selfLockout: 'SELF_LOCKOUT',
  /** Single sign-on is the way in: passwords are off for everyone but the break-glass admin. */
  passwordSignInOff: 'PASSWORD_SIGN_IN_OFF',
  /** A sub-organization-restricted admin acting beyond their scope (docs/security.md). */
  outsideAdminScope: 'OUTSIDE_ADMIN_SCOPE',
  // Change-request approvals.
  alreadyDecided: 'ALREADY_DECIDED',
  /** The member's own decision on an item still waiting is recorded: a second one is refused. */
  decisionAlreadyRecorded: 'DECISION_ALREADY_RECORDED',
  fourEyes: 'FOUR_EYES',
  /**
   * Signed approvals (contract/approval-signature.ts): a member who must sign
   * sent no signed intent; the assertion or its challenge did not verify (or
   * was used, expired, or another member's); the card the member saw is no
   * longer the item's (409, with the current digest).
   */
  signedIntentRequired: 'SIGNED_INTENT_REQUIRED',
  signedIntentInvalid: 'SIGNED_INTENT_INVALID',
  cardChanged: 'CARD_CHANGED',
  /**
   * The decider and the proposer are linked by member management (one created
   * the other's account): refused for policy publishes and staff changes.
   */
  linkedAccounts: 'LINKED_ACCOUNTS',
  /** A set-up code that is unknown, used, expired, or whose member awaits approval. */
  setupInvalid: 'SETUP_INVALID',
  /** Upstream: the deciding member may have created it (its create answer was lost or late). */
  fourEyesUnresolved: 'FOUR_EYES_UNRESOLVED',
  selfApprovalNotAllowed: 'SELF_APPROVAL_NOT_ALLOWED',
  invalidApprovalSignature: 'INVALID_APPROVAL_SIGNATURE',
  /** An operation's user action by an API user the vault does not name among its signers. */
  notVaultSigner: 'NOT_VAULT_SIGNER',
  // API clients (Api-Key + signed token); token failures use the TOKEN_* codes.
  unknownApiKey: 'UNKNOWN_API_KEY',
  /** The API user's key is past its expiry. */
  apiKeyExpired: 'API_KEY_EXPIRED',
  /** An admin revoked the API user: its key is refused for good. */
  apiKeyRevoked: 'API_KEY_REVOKED',
  /** The API user's scope (read only; create) does not cover this call. */
  apiUserScope: 'OUTSIDE_API_USER_SCOPE',
  /** The request came from outside the API user's allowed networks. */
  ipNotAllowed: 'IP_NOT_ALLOWED',
  missingBearerToken: 'MISSING_BEARER_TOKEN',
  invalidDataSignature: 'INVALID_DATA_SIGNATURE',
  apiClientsNotAccepted: 'API_CLIENTS_NOT_ACCEPTED',
  tokenMalformed: 'TOKEN_MALFORMED',
  tokenBadHeader: 'TOKEN_BAD_HEADER',
  tokenBadSignature: 'TOKEN_BAD_SIGNATURE',
  tokenExpired: 'TOKEN_EXPIRED',
  tokenNotYetValid: 'TOKEN_NOT_YET_VALID',
  tokenLifetimeTooLong: 'TOKEN_LIFETIME_TOO_LONG',
  tokenApiKeyMismatch: 'TOKEN_API_KEY_MISMATCH',
  tokenUrlPathMismatch: 'TOKEN_URL_PATH_MISMATCH',
  tokenBodyMismatch: 'TOKEN_BODY_MISMATCH',
  tokenReplayed: 'TOKEN_REPLAYED',
  internal: 'INTERNAL_ERROR',
  upstreamUnavailable: 'UPSTREAM_UNAVAILABLE',
  upstreamTimeout: 'UPSTREAM_TIMEOUT',
  /** The custody API refused the console's own API-user credentials (a configuration problem). */
  upstreamAuthFailed: 'UPSTREAM_AUTH_FAILED',
  // The staff second factor (TOTP) and the account page.
  secondFactorStepExpired: 'SECOND_FACTOR_STEP_EXPIRED',
  secondFactorInvalid: 'SECOND_FACTOR_INVALID',
  secondFactorReplayed: 'SECOND_FACTOR_REPLAYED',
  secondFactorRateLimited: 'SECOND_FACTOR_RATE_LIMITED',
  /** A passkey's assertion or registration the server could not verify (auth/passkeys.ts). */
  passkeyInvalid: 'PASSKEY_INVALID',
  wrongPassword: 'WRONG_PASSWORD',
  demoMemberFixed: 'DEMO_MEMBER_FIXED',
  /** The console's own database cannot be reached (stopped, restarting): 503 with Retry-After. */
  databaseUnavailable: 'DATABASE_UNAVAILABLE',
  /** A request body did not arrive within the time allowed: 408. */
  requestTimeout: 'REQUEST_TIMEOUT',
  /** An approval policy's draft changed after the caller read it (contract/policies.ts): re-read it. */
  policyDraftChanged: 'POLICY_DRAFT_CHANGED',
  /** The approval policy's rule for the item blocks it: refused at creation, naming the rule. */
  policyBlocked: 'POLICY_BLOCKED',
  /** The item's rule does not count this approver (their role, or not among the named members). */
  policyNotEligible: 'POLICY_NOT_ELIGIBLE',
  /** An API client may add only the approval that completes an item's rule; members add the rest. */
  policyNeedsMoreApprovals: 'POLICY_NEEDS_MORE_APPROVALS',
  // Ramps and FX: every refusal a 400 (the Python SDK types 400, not 409).
  quoteRequired: 'QUOTE_REQUIRED',
  quoteNotFound: 'QUOTE_NOT_FOUND',
  quoteExpired: 'QUOTE_EXPIRED',
  quoteAlreadyUsed: 'QUOTE_ALREADY_USED',
  /** The quote was priced for another sub-organization than the caller acts in. */
  quoteOutOfScope: 'QUOTE_OUT_OF_SCOPE',
  /** The body names other parties, assets, chains or amounts than the quote it executes. */
  quoteMismatch: 'QUOTE_MISMATCH',
  /**
   * A ramp's approval names another quote than its current one, or names none
   * while the current one (priced again, the rate beyond the tolerance) waits
   * to be accepted: 409, naming the current quote.
   */
  quoteChanged: 'QUOTE_CHANGED',
  amountBelowMinimum: 'AMOUNT_BELOW_MINIMUM',
  amountAboveMaximum: 'AMOUNT_ABOVE_MAXIMUM',
  insufficientBalance: 'INSUFFICIENT_BALANCE',
  /** No provider serves this pair or these parties (a fiat vault, a chain without the asset). */
  unsupportedRoute: 'UNSUPPORTED_ROUTE',
  unknownBankAccount: 'UNKNOWN_BANK_ACCOUNT',
  bankAccountNotApproved: 'BANK_ACCOUNT_NOT_APPROVED',
  /** The bank account belongs to another sub-organization than the vault it is paired with. */
  bankAccountOtherSubOrg: 'BANK_ACCOUNT_OTHER_SUB_ORG',
  railMismatch: 'PAYMENT_RAIL_MISMATCH',
  notAwaitingDeposit: 'NOT_AWAITING_DEPOSIT',
  depositAlreadyMarked: 'DEPOSIT_ALREADY_MARKED',
  /** A ramp or FX is a provider's operation, not one chain transaction: it has no replacement. */
  categoryNotReplaceable: 'CATEGORY_NOT_REPLACEABLE',
  /** An incoming transaction was signed by its sender: only they can replace it. */
  incomingNotReplaceable: 'INCOMING_NOT_REPLACEABLE',
  // The address book.
  /** The entity has a change request awaiting decision: decide it before proposing another change. */
  changePending: 'CHANGE_PENDING',
  /** A declined contact is final: propose a new one. */
  contactDeclined: 'CONTACT_DECLINED',
  /** The same address on the same chain is already a pending or approved contact of that owner. */
  duplicateContact: 'DUPLICATE_CONTACT',
  // Webhooks: the sandbox's outgoing endpoints and the console's receiver.
  /** A webhook URL that points at a private, loopback, link-local or metadata address (SSRF). */
  webhookTargetRefused: 'WEBHOOK_TARGET_REFUSED',
  /** Webhook endpoints are the sandbox's: upstream, the provider's dashboard registers them. */
  webhooksUnavailable: 'WEBHOOKS_UNAVAILABLE',
  /** The receiver has no CUSTODY_WEBHOOK_KEY: it verifies nothing, so it accepts nothing. */
  webhookReceiverOff: 'WEBHOOK_RECEIVER_OFF',
  webhookSignatureInvalid: 'WEBHOOK_SIGNATURE_INVALID',
  webhookTimestampStale: 'WEBHOOK_TIMESTAMP_STALE',
  webhookReplayed: 'WEBHOOK_REPLAYED',
  /** The sandbox's tools (a sub-organization, a deposit) on a console acting on an upstream custody service. */
  sandboxOnly: 'SANDBOX_ONLY',
  /** Cancelling a transaction that was not scheduled (no `executeAt`): only a schedule can be called off. */
  notScheduled: 'NOT_SCHEDULED',
  /** A scheduled transfer's time has come (or it has ended): it can no longer be cancelled. */
  scheduleDue: 'SCHEDULE_DUE',
} as const;
