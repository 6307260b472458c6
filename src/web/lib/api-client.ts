import { approvalInbox } from '../../contract/endpoints/approvals.ts';
import { approvalDecisions } from '../../contract/endpoints/approvals.ts';
import * as z from 'zod/mini';
import { ApprovalDecisionList } from '../../contract/approval-decision.ts';
import {
  ApprovalInboxResponse,
  type ApprovalInboxFilters,
} from '../../contract/approval-inbox.ts';
import {
  DemoAccountList,
  LoginAnswer,
  SecondFactorSessionResponse,
  SessionResponse,
  type AuditFilters,
  type LoginRequest,
  type SecondFactorRequest,
  authPaths,
} from '../../contract/auth.ts';
// Answers are parsed with the *-record modules: the request rules (IBAN, decimal maths) load with the forms.
import {
  BankAccount,
  BankAccountListResponse,
  type BankAccountFilters,
} from '../../contract/bank-account-record.ts';
import type { BankAccountCreateInput } from '../../contract/bank-account.ts';
import { ApiErrorBody, DEFAULT_PAGE_SIZE, type ListParams } from '../../contract/common.ts';
import { paths, toQueryString } from '../../contract/paths.ts';
import {
  AssetListResponse,
  ContactListResponse,
  SubOrgListResponse,
  SupportedChainListResponse,
  VaultBalances,
  VaultListResponse,
  type ContactFilters,
  type VaultFilters,
} from '../../contract/reference.ts';
import {
  ApprovalActionResponse,
  ApprovalMessageResponse,
  type ApprovalActionRequest,
} from '../../contract/approvals.ts';
import {
  EstimatedFeeResponse,
  Transaction,
  TransactionListResponse,
  type TransactionFilters,
} from '../../contract/transaction-record.ts';
import type {
  CreateTransactionRequest,
  EstimateFeeRequest,
  ReplaceTransactionRequest,
} from '../../contract/transaction.ts';
import {
  ApiError,
  NetworkError,
  ResponseValidationError,
  isAbortError,
  parseRetryAfter,
} from './api-errors.ts';
import { pathOf, type AnswerOf, type CallInput, type Endpoint } from '../../contract/endpoint.ts';
import { csrfHeaders } from './csrf-token.ts';
import { scopedFetch } from './render-scope.ts';

/**
 * The SPA's client for the custody API as the console server exposes it on
 * its own origin. One function per endpoint; every answer is checked against
 * the contract's (lenient) response schema. No UI side effects here: callers
 * decide what an error means to the user.
 */

/** `fetch`, or anything shaped like it — e.g. a Hono app's `app.request` in tests. */
export type FetchLike = (input: string, init: RequestInit) => Response | Promise<Response>;

export interface ApiClientOptions {
  /** Defaults to the global `fetch`, looked up at call time. */
  fetch?: FetchLike;
  /** Prefix for every path; '' (the default) means the page's own origin. */
  baseUrl?: string;
  /** Extra headers per request (a CSRF token, for instance). */
  headers?: () => Record<string, string>;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Headers for this request only (the audit reason of a create, for instance). */
  headers?: Record<string, string>;
}

/** A conditional GET's answer: unchanged (304), or the new body with its ETag. */
export type Revalidated<T> =
  { notModified: true } | { notModified: false; data: T; etag: string | null };

export type TransactionListParams = ListParams<TransactionFilters>;
export type BankAccountListParams = ListParams<BankAccountFilters>;
export type VaultListParams = ListParams<VaultFilters>;
export type ContactListParams = ListParams<ContactFilters>;
export type SubOrgListParams = ListParams<Record<never, never>>;
export type AuditListParams = ListParams<AuditFilters>;
export type ApprovalInboxParams = ListParams<ApprovalInboxFilters>;

/** GET /auth/demo-accounts (sandbox only): who to sign in as, with their passwords. */
const DemoAccounts = z.pipe(
  DemoAccountList,
  z.transform((r: DemoAccountList) => r.results),
);

/** GET /api/console/backend: which custody service the console acts on. */
const BackendInfo = z.looseObject({
  kind: z.enum(['sandbox', 'upstream']),
  host: z.nullable(z.string()),
});
type BackendInfo = z.infer<typeof BackendInfo>;

const AnyBody = z.unknown();

type QueryValue = string | number | null | undefined;

function listQuery(params: ListParams<object>): string {
  const { limit, cursor, ...filters } = params;
  return toQueryString({
    ...(filters as Record<string, QueryValue>),
    limit: limit ?? DEFAULT_PAGE_SIZE,
    cursor,
  });
}

function statusFallbackMessage(response: Response): string {
  const text = response.statusText ? ` (${response.statusText})` : '';
  return `Request failed with status ${response.status}${text}`;
}

export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function request<S extends z.ZodMiniType>(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    schema: S,
    init: {
      body?: unknown;
      signal?: AbortSignal | undefined;
      headers?: Record<string, string>;
    } = {},
  ): Promise<z.output<S>> {
    const { response, text } = await send(method, path, init);
    if (!response.ok) throw toApiError(response, text);
    return parseAnswer(method, path, schema, response, text);
  }

  /**
   * A conditional GET. The API answers `no-store`, so the browser keeps no
   * copy of its own: with If-None-Match set here, fetch passes the server's
   * 304 through as it is (a request carrying a conditional header bypasses
   * the HTTP cache), and an unchanged resource costs a bodiless answer.
   */
  async function revalidate<S extends z.ZodMiniType>(
    path: string,
    schema: S,
    etag: string | null | undefined,
    opts?: RequestOptions,
  ): Promise<Revalidated<z.output<S>>> {
    const { response, text } = await send('GET', path, {
      signal: opts?.signal,
      ...(etag ? { headers: { 'If-None-Match': etag } } : {}),
    });
    if (response.status === 304) return { notModified: true };
    if (!response.ok) throw toApiError(response, text);
    const data = parseAnswer('GET', path, schema, response, text);
    return { notModified: false, data, etag: response.headers.get('ETag') };
  }

  async function send(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    init: {
      body?: unknown;
      signal?: AbortSignal | undefined;
      headers?: Record<string, string>;
    },
  ): Promise<{ response: Response; text: string }> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      ...options.headers?.(),
      ...init.headers,
    };
    let body: string | undefined;
    if (init.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(init.body);
    }

    let response: Response;
    let text: string;
    try {
      response = await fetchFn(`${baseUrl}${path}`, {
        method,
        headers,
        body,
        credentials: 'same-origin',
        signal: init.signal,
      });
      text = await response.text();
    } catch (error) {
      // A cancelled request is not a network problem: let the caller see the abort.
      if (isAbortError(error) || init.signal?.aborted) throw error;
      throw new NetworkError(`Could not reach ${path}`, { cause: error });
    }
    return { response, text };
  }

  function parseAnswer<S extends z.ZodMiniType>(
    method: string,
    path: string,
    schema: S,
    response: Response,
    text: string,
  ): z.output<S> {
    let json: unknown;
    try {
      json = text === '' ? undefined : JSON.parse(text);
    } catch {
      throw new ResponseValidationError(
        path,
        response.status,
        `${method} ${path} answered with non-JSON content`,
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new ResponseValidationError(
        path,
        response.status,
        `${method} ${path} answered with an unexpected shape`,
        parsed.error.issues,
      );
    }
    return parsed.data;
  }

  function toApiError(response: Response, text: string): ApiError {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return new ApiError(response.status, undefined, statusFallbackMessage(response));
    }
    const parsed = ApiErrorBody.safeParse(json);
    if (!parsed.success) {
      return new ApiError(response.status, undefined, statusFallbackMessage(response));
    }
    const error = new ApiError(
      response.status,
      parsed.data.code,
      parsed.data.message,
      parsed.data.fields,
    );
    if (response.status === 429) {
      error.retryAfterSeconds = parseRetryAfter(response.headers.get('Retry-After'));
    }
    return error;
  }

  const get = <S extends z.ZodMiniType>(path: string, schema: S, opts?: RequestOptions) =>
    request('GET', path, schema, { signal: opts?.signal });
  const post = <S extends z.ZodMiniType>(
    path: string,
    schema: S,
    body: unknown,
    opts?: RequestOptions,
  ) => request('POST', path, schema, { body, signal: opts?.signal, headers: opts?.headers });

  /**
   * Calls a declared endpoint (contract/endpoint.ts): its path from the
   * parameters, its query (a paged one with the default page size), its body,
   * and its answer checked against the declared schema. Endpoints move to
   * this one call from the functions below as they are declared (issue 26).
   */
  function call<E extends Endpoint>(
    e: E,
    input: CallInput<E>,
    opts?: RequestOptions,
  ): Promise<AnswerOf<E>> {
    const { params, query, body } = input as {
      params?: Record<string, string>;
      query?: ListParams<Record<string, QueryValue>>;
      body?: unknown;
    };
    const search = e.paged
      ? listQuery(query ?? {})
      : toQueryString((query ?? {}) as Record<string, QueryValue>);
    return request(e.method, `${pathOf(e, params)}${search}`, e.answer, {
      ...(body !== undefined ? { body } : {}),
      signal: opts?.signal,
      ...(opts?.headers ? { headers: opts.headers } : {}),
    }) as Promise<AnswerOf<E>>;
  }

  return {
    call,
    // 1–3: bank accounts
    listBankAccounts: (params: BankAccountListParams = {}, opts?: RequestOptions) =>
      get(`${paths.bankAccounts()}${listQuery(params)}`, BankAccountListResponse, opts),
    getBankAccount: (bankAccountId: string, opts?: RequestOptions) =>
      get(paths.bankAccount(bankAccountId), BankAccount, opts),
    createBankAccount: (body: BankAccountCreateInput, opts?: RequestOptions) =>
      post(paths.bankAccounts(), BankAccount, body, opts),

    // 4–8: transactions
    listTransactions: (params: TransactionListParams = {}, opts?: RequestOptions) =>
      get(`${paths.transactions()}${listQuery(params)}`, TransactionListResponse, opts),
    getTransaction: (transactionId: string, opts?: RequestOptions) =>
      get(paths.transaction(transactionId), Transaction, opts),
    /** The transaction if it changed since the copy tagged `etag` (304 → `notModified`). */
    revalidateTransaction: (transactionId: string, etag: string | null, opts?: RequestOptions) =>
      revalidate(paths.transaction(transactionId), Transaction, etag, opts),
    replaceTransaction: (body: ReplaceTransactionRequest, opts?: RequestOptions) =>
      post(paths.replaceTransaction(), Transaction, body, opts),
    /** One path for every kind: the body's `category` selects transfer, contract call, stake or delegation. */
    createTransaction: (body: CreateTransactionRequest, opts?: RequestOptions) =>
      post(paths.transactions(), Transaction, body, opts),
    estimateFee: (body: EstimateFeeRequest, opts?: RequestOptions) =>
      post(paths.estimateFee(), EstimatedFeeResponse, body, opts),

    // Supporting reads
    listVaults: (params: VaultListParams = {}, opts?: RequestOptions) =>
      get(`${paths.vaults()}${listQuery(params)}`, VaultListResponse, opts),
    getVaultBalances: (vaultId: string, opts?: RequestOptions) =>
      get(paths.vaultBalances(vaultId), VaultBalances, opts),
    listContacts: (params: ContactListParams = {}, opts?: RequestOptions) =>
      get(`${paths.contacts()}${listQuery(params)}`, ContactListResponse, opts),
    listAssets: (opts?: RequestOptions) => get(paths.assets(), AssetListResponse, opts),
    listSupportedChains: (opts?: RequestOptions) =>
      get(paths.supportedChains(), SupportedChainListResponse, opts),
    listSubOrgs: (params: SubOrgListParams = {}, opts?: RequestOptions) =>
      get(`${paths.subOrgs()}${listQuery(params)}`, SubOrgListResponse, opts),

    // Change-request approvals
    getApprovalMessage: (entityId: string, opts?: RequestOptions) =>
      get(
        `${paths.approvalMessage()}${toQueryString({ entityId })}`,
        ApprovalMessageResponse,
        opts,
      ),
    actOnApproval: (approvalId: string, body: ApprovalActionRequest, opts?: RequestOptions) =>
      post(paths.approvalAction(approvalId), ApprovalActionResponse, body, opts),

    // The console's own endpoints: staff sign-in, staff management, audit log.
    getSession: (opts?: RequestOptions) => get(authPaths.session, SessionResponse, opts),
    getBackendInfo: (opts?: RequestOptions) => get('/api/console/backend', BackendInfo, opts),
    /** A session, or the second factor's step (`isSecondFactorChallenge`). */
    login: (body: LoginRequest, opts?: RequestOptions) =>
      post(authPaths.login, LoginAnswer, body, opts),
    loginSecondFactor: (body: SecondFactorRequest, opts?: RequestOptions) =>
      post(authPaths.loginSecondFactor, SecondFactorSessionResponse, body, opts),
    // The signed-in member's own account.
    logout: (opts?: RequestOptions) => post(authPaths.logout, AnyBody, {}, opts),
    listDemoAccounts: (opts?: RequestOptions) => get('/auth/demo-accounts', DemoAccounts, opts),
    /** Who approved or rejected these transactions or bank accounts, and when (at most 100 ids). */
    listApprovalDecisions: (entityIds: readonly string[], opts?: RequestOptions) =>
      get(
        `${approvalDecisions.path}${toQueryString({ entityIds: entityIds.join(',') })}`,
        ApprovalDecisionList,
        opts,
      ),
    /** Pending transactions and bank accounts, newest first, with the inbox's counts. */
    listApprovalInbox: (params: ApprovalInboxParams = {}, opts?: RequestOptions) =>
      get(`${approvalInbox.path}${listQuery(params)}`, ApprovalInboxResponse, opts),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/**
 * The browser's client: same origin, global fetch, the session's CSRF token on
 * every request. During a server render the same client reaches the server
 * in process, as the visitor (lib/render-scope.ts).
 */
export const apiClient: ApiClient = createApiClient({ headers: csrfHeaders, fetch: scopedFetch });

export { ApiError };
