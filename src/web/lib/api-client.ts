import type * as z from 'zod/mini';
import type { ApprovalInboxFilters } from '#contract/approval-inbox-counts.ts';
import type { BankAccountFilters } from '#contract/bank-account-record.ts';
import type { ContactFilters } from '#contract/reference.ts';
import { ApiErrorBody, DEFAULT_PAGE_SIZE, type ListParams } from '#contract/common.ts';
import {
  pathOf,
  toQueryString,
  type AnswerOf,
  type CallInput,
  type Endpoint,
} from '#contract/endpoint.ts';
import type { TransactionFilters } from '#contract/transaction-record.ts';
import {
  ApiError,
  NetworkError,
  ResponseValidationError,
  isAbortError,
  parseRetryAfter,
} from './api-errors.ts';
import { csrfHeaders } from './csrf-token.ts';
import { scopedFetch, scopedTrust } from './render-scope.ts';

/**
 * The SPA's client for the console server's own origin: one typed call for
 * every declared endpoint (contract/endpoints/), each answer checked against
 * its declared (lenient) schema (a server render's own answers in process
 * may be taken as they come: `trusts`). No UI side effects here: callers decide
 * what an error means to the user.
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
  /**
   * Answers of these schemas are taken as they come, unchecked: the server's
   * own, answered in process while it renders a page (lib/render-scope.ts).
   * Default: every answer is checked.
   */
  trusts?: (schema: z.ZodMiniType) => boolean;
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
export type ContactListParams = ListParams<ContactFilters>;
export type ApprovalInboxParams = ListParams<ApprovalInboxFilters>;

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
    if (options.trusts?.(schema)) return json as z.output<S>;
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

  function target(e: Endpoint, input: object): string {
    const { params, query } = input as {
      params?: Record<string, string>;
      query?: ListParams<Record<string, QueryValue>>;
    };
    const search = e.paged
      ? listQuery(query ?? {})
      : toQueryString((query ?? {}) as Record<string, QueryValue>);
    return `${pathOf(e, params)}${search}`;
  }

  /**
   * Calls a declared endpoint (contract/endpoint.ts): its path from the
   * parameters, its query (a paged one with the default page size), its body,
   * and its answer checked against the declared schema.
   */
  function call<E extends Endpoint>(
    e: E,
    input: CallInput<E>,
    opts?: RequestOptions,
  ): Promise<AnswerOf<E>> {
    const { body } = input as { body?: unknown };
    return request(e.method, target(e, input), e.answer, {
      ...(body !== undefined ? { body } : {}),
      signal: opts?.signal,
      ...(opts?.headers ? { headers: opts.headers } : {}),
    }) as Promise<AnswerOf<E>>;
  }

  /**
   * A declared GET sent conditionally: unchanged since the copy tagged
   * `etag` (a bodiless 304 → `notModified`), or its new answer and ETag.
   */
  function callIfChanged<E extends Endpoint>(
    e: E,
    input: CallInput<E>,
    etag: string | null | undefined,
    opts?: RequestOptions,
  ): Promise<Revalidated<AnswerOf<E>>> {
    return revalidate(target(e, input), e.answer, etag, opts) as Promise<Revalidated<AnswerOf<E>>>;
  }

  return { call, callIfChanged };
}

export type ApiClient = ReturnType<typeof createApiClient>;

/**
 * The browser's client: same origin, global fetch, the session's CSRF token on
 * every request, every answer checked. During a server render the same
 * client reaches the server in process, as the visitor, and takes the
 * server's answers of plain schemas as they come (lib/render-scope.ts).
 */
export const apiClient: ApiClient = createApiClient({
  headers: csrfHeaders,
  fetch: scopedFetch,
  trusts: scopedTrust,
});

export { ApiError };
