import type { CustodyActor, CustodyScope } from '../http/app-env.ts';
import type { Page, PageRequest } from '../../contract/common.ts';
import type {
  BankAccount,
  BankAccountCreateRequest,
  BankAccountFilters,
} from '../../contract/bank-account.ts';
import type { ChangeRequestActor, ChangeRequestRecord } from '../../contract/change-request.ts';
import type { ApprovalDecision } from '../../contract/approval-decision.ts';
import type {
  Asset,
  Contact,
  ContactFilters,
  SubOrg,
  SupportedChain,
  Vault,
  VaultBalances,
  VaultFilters,
} from '../../contract/reference.ts';
import type {
  ApprovalActionRequest,
  ApprovalActionResponse,
  ApprovalMessageResponse,
} from '../../contract/approvals.ts';
import type {
  CreateTransactionRequest,
  EstimatedFeeResponse,
  EstimateFeeRequest,
  ReplaceTransactionRequest,
  Transaction,
  TransactionFilters,
} from '../../contract/transaction.ts';

/**
 * The custody API as the console server sees it. Two implementations: the
 * embedded sandbox (over the database) and upstream (signed HTTP to a real
 * custody API). Routes speak only to this interface.
 *
 * Failures a client should see are thrown as ApiError (src/contract/api-error.ts)
 * with the status and `{message, code}` to answer: NOT_FOUND for an unknown
 * id, INVALID_CURSOR for a cursor this backend did not issue, and so on.
 */

// Who is calling and what they may see are properties of the request, set
// by the auth middleware: declared with the request's context.
export type { CustodyActor, CustodyScope };

export interface CustodyContext {
  actor?: CustodyActor;
  requestId?: string;
  /** Absent for API clients: they see their whole organization. */
  scope?: CustodyScope;
}

/**
 * Set by the scope layer (src/server/console/scoped-backend.ts) for a staff
 * member restricted to several sub-orgs: an IN filter the stores apply.
 */
export interface ScopeFilter {
  subOrgIds?: string[] | undefined;
  subOrgId?: string | undefined;
}

/** An item's place in the approvals inbox: newest first, then kind, then id (all descending). */
export interface PendingApprovalPosition {
  createdAt: Date;
  kind: PendingApproval['kind'];
  id: string;
}

export interface PendingApprovalsQuery extends ScopeFilter {
  limit: number;
  /** The last item of the previous page: the page starts strictly after it. */
  after?: PendingApprovalPosition | undefined;
  /** A staff member: what they proposed is counted apart (four-eyes: not theirs to decide). */
  creatorId?: string | undefined;
}

/**
 * Who proposed a pending item (the creator its change request names): an API
 * user named by the backend; a staff member by id only (the console names
 * its members). Null or absent when the backend cannot say.
 */
export type PendingApprovalInitiator = ChangeRequestActor | null;

export type PendingApproval =
  | { kind: 'TRANSACTION'; transaction: Transaction; initiator?: PendingApprovalInitiator }
  | { kind: 'BANK_ACCOUNT'; bankAccount: BankAccount; initiator?: PendingApprovalInitiator };

export interface PendingApprovals {
  /** At most `limit` items after `after`, in the inbox's order. */
  items: PendingApproval[];
  hasNext: boolean;
  /** Every PENDING item in the query's scope, all pages. */
  totalCount: number;
  /** Of those, the ones `creatorId` did not propose. */
  actionableCount: number;
}

export type TransactionListQuery = PageRequest & TransactionFilters & ScopeFilter;
export type BankAccountListQuery = PageRequest & BankAccountFilters & ScopeFilter;
export type VaultListQuery = PageRequest & VaultFilters & ScopeFilter;
export type ContactListQuery = PageRequest & ContactFilters & ScopeFilter;

export interface CustodyBackend {
  readonly kind: 'sandbox' | 'upstream';
  /** Upstream only: the custody API's host, shown to staff so they know where they act. */
  readonly upstreamHost?: string;
  /**
   * GET /readyz: resolves when the backend answers a cheap signed read,
   * throws (ApiError, with the reason) otherwise. The sandbox has no such
   * call: its readiness is the database's.
   */
  checkReady?(): Promise<void>;

  // Endpoints 4 and 5.
  listTransactions(ctx: CustodyContext, query: TransactionListQuery): Promise<Page<Transaction>>;
  getTransaction(ctx: CustodyContext, transactionId: string): Promise<Transaction>;
  // Endpoints 6–8: create (PENDING, with a change request), replace a SUBMITTED one, estimate fees.
  createTransaction(ctx: CustodyContext, body: CreateTransactionRequest): Promise<Transaction>;
  replaceTransaction(ctx: CustodyContext, body: ReplaceTransactionRequest): Promise<Transaction>;
  estimateFee(ctx: CustodyContext, body: EstimateFeeRequest): Promise<EstimatedFeeResponse>;

  // Endpoints 1 and 2.
  listBankAccounts(ctx: CustodyContext, query: BankAccountListQuery): Promise<Page<BankAccount>>;
  getBankAccount(ctx: CustodyContext, bankAccountId: string): Promise<BankAccount>;
  // Endpoint 3: created PENDING, with a change request awaiting approval.
  createBankAccount(ctx: CustodyContext, input: BankAccountCreateRequest): Promise<BankAccount>;

  // Change-request approvals: the message to sign, then the decision.
  getApprovalMessage(ctx: CustodyContext, entityId: string): Promise<ApprovalMessageResponse>;
  decideApproval(
    ctx: CustodyContext,
    approvalId: string,
    request: ApprovalActionRequest,
  ): Promise<ApprovalActionResponse>;
  /**
   * The entity an approval is about, or null: lets the scope layer refuse a
   * member's decision outside their sub-orgs before anything is decided.
   * Without it, members restricted to some sub-orgs cannot decide at all.
   */
  approvalEntityId?(ctx: CustodyContext, approvalId: string): Promise<string | null>;
  /**
   * Every change request about an entity, oldest first: who proposed and who
   * decided it, when, and the reason. The custody API has no such read, so
   * only a backend that holds change requests (the sandbox) offers it; the
   * console falls back to its own audit log otherwise. The caller checks
   * the entity's scope first.
   */
  changeRequestHistory?(ctx: CustodyContext, entityId: string): Promise<ChangeRequestRecord[]>;
  /**
   * How these entities' change requests were decided (the latest decided one
   * each; undecided entities are absent). The custody API has no such read,
   * so only the sandbox offers it; the console falls back to its audit log.
   * Each carries the entity's sub-org so the caller can hold it to a scope.
   */
  approvalDecisions?(
    ctx: CustodyContext,
    entityIds: readonly string[],
  ): Promise<RecordedApprovalDecision[]>;

  /**
   * The approvals inbox's page and counts in one read: PENDING transactions
   * and bank accounts together, keyset-paged in the inbox's order, counted
   * without reading the rows. The custody API has no such read, so only the
   * sandbox offers it; the console otherwise reads the two lists page by
   * page (console/approval-inbox.ts).
   */
  pendingApprovals?(ctx: CustodyContext, query: PendingApprovalsQuery): Promise<PendingApprovals>;

  /**
   * The API users API clients authenticate as. Only the sandbox has them: it
   * is the custody service; upstream mode accepts no API clients.
   */
  readonly apiClients?: ApiClientDirectory;

  // Supporting reads.
  listVaults(ctx: CustodyContext, query: VaultListQuery): Promise<Page<Vault>>;
  getVault(ctx: CustodyContext, vaultId: string): Promise<Vault>;
  getVaultBalances(ctx: CustodyContext, vaultId: string): Promise<VaultBalances>;
  listContacts(ctx: CustodyContext, query: ContactListQuery): Promise<Page<Contact>>;
  /** One contact, 404 if unknown: the scope layer checks whom a create pays. */
  getContact(ctx: CustodyContext, contactId: string): Promise<Contact>;
  listAssets(ctx: CustodyContext): Promise<Asset[]>;
  listSupportedChains(ctx: CustodyContext): Promise<SupportedChain[]>;
  listSubOrgs(ctx: CustodyContext, query: PageRequest): Promise<Page<SubOrg>>;
}

export type RecordedApprovalDecision = ApprovalDecision & { subOrgId: string | null };

/** An API user as the request-token check needs it. */
interface ApiClientRecord {
  id: string;
  orgId: string;
  /** SPKI DER hex of the user's P-256 public key. */
  publicKey: string;
}

export interface ApiClientDirectory {
  findByApiKey(apiKey: string): Promise<ApiClientRecord | undefined>;
  /**
   * Records a token's jti until `expiresAt`, atomically; false when this API
   * user already recorded it (a replay), so two concurrent requests cannot
   * both pass. Another user's jti never counts: each user picks its own.
   */
  recordTokenId(jti: string, apiUserId: string, expiresAt: Date, now: Date): Promise<boolean>;
}
