import type { KeyObject } from 'node:crypto';
import type { Logger } from 'pino';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiErrorBody, ERROR_CODES } from '#contract/common.ts';
import { canonicalJson, signRequestToken } from '../../protocol/api-token.ts';
import { systemClock, type Clock } from '../../clock.ts';
import { ApiError } from '#contract/api-error.ts';

/**
 * Signed HTTP to the custody API, one fresh token per request, made as the
 * provider's SDKs make theirs (docs/upstream.md):
 * `Api-Key` plus `Authorization: Bearer` over the path with its query and the
 * hash of the compact sorted-key JSON body. The body sent is that same JSON,
 * so the hash covers exactly the bytes on the wire.
 *
 * Failures become what the console answers: an upstream 4xx keeps its status
 * and `{message, code}`; a refused connection or a 5xx is 502
 * UPSTREAM_UNAVAILABLE; no answer within the timeout is 504 UPSTREAM_TIMEOUT.
 * Reads are retried with jittered back-off inside that same timeout; writes
 * are sent once (the backend reconciles a write whose answer was lost).
 */

export interface UpstreamClientOptions {
  baseUrl: string;
  apiKey: string;
  privateKey: KeyObject;
  /** Budget of one operation, retries included. */
  timeoutMs: number;
  logger?: Logger | undefined;
  /** Attempts of a read (first try included). */
  readAttempts?: number;
  /** Base of the exponential back-off between read attempts. */
  backoffMs?: number;
  fetch?: typeof fetch;
  /** The token's iat; the budgets below are elapsed time and use the monotonic timers. */
  clock?: Clock;
}

type UpstreamMethod = 'GET' | 'POST' | 'PUT';

export interface UpstreamRequest {
  method: UpstreamMethod;
  /** The API path with its query string, e.g. `/api/external/transactions/?limit=20`. */
  path: string;
  body?: unknown;
  requestId?: string | undefined;
  /** Reads (and fee estimates) may be retried; creates and decisions never are. */
  retry: boolean;
}

/** Why an upstream call produced no answer the console can trust. */
export class UpstreamFailure extends ApiError {
  constructor(
    readonly reason: 'timeout' | 'unavailable',
    message: string,
    readonly requestId: string | undefined,
  ) {
    super(
      reason === 'timeout' ? 504 : 502,
      reason === 'timeout' ? ERROR_CODES.upstreamTimeout : ERROR_CODES.upstreamUnavailable,
      requestId ? `${message} (request id ${requestId})` : message,
    );
  }

  override toBody() {
    return { ...super.toBody(), ...(this.requestId ? { requestId: this.requestId } : {}) };
  }
}

export function createUpstreamClient(options: UpstreamClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const host = new URL(base).host;
  const attempts = options.readAttempts ?? 3;
  const backoffMs = options.backoffMs ?? 150;
  const clock = options.clock ?? systemClock;
  const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));

  async function attempt(request: UpstreamRequest, deadline: number): Promise<unknown> {
    const bodyText = request.body === undefined ? undefined : canonicalJson(request.body);
    const token = signRequestToken({
      apiKey: options.apiKey,
      privateKey: options.privateKey,
      urlPath: request.path,
      body: request.body,
      now: clock.now(),
    });
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Api-Key': options.apiKey,
      Authorization: `Bearer ${token}`,
    };
    if (bodyText !== undefined) headers['Content-Type'] = 'application/json';
    // The console's request id follows the call, so both sides' logs line up.
    if (request.requestId) headers['X-Request-Id'] = request.requestId;

    const started = performance.now();
    let response: Response;
    let text: string;
    try {
      response = await fetchFn(`${base}${request.path}`, {
        method: request.method,
        headers,
        ...(bodyText === undefined ? {} : { body: bodyText }),
        signal: AbortSignal.timeout(Math.max(1, Math.ceil(deadline - performance.now()))),
        redirect: 'manual',
      });
      text = await response.text();
    } catch (error) {
      const timedOut =
        error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      options.logger?.warn(
        { method: request.method, path: pathOnly(request.path), timedOut },
        'custody API did not answer',
      );
      throw timedOut
        ? new UpstreamFailure(
            'timeout',
            `The custody API at ${host} did not answer within ${options.timeoutMs} ms`,
            request.requestId,
          )
        : new UpstreamFailure(
            'unavailable',
            `The custody API at ${host} could not be reached`,
            request.requestId,
          );
    }
    options.logger?.debug(
      {
        method: request.method,
        path: pathOnly(request.path),
        status: response.status,
        ms: Math.round(performance.now() - started),
      },
      'custody API call',
    );
    return interpret(request, response, text);
  }

  function interpret(request: UpstreamRequest, response: Response, text: string): unknown {
    if (response.status >= 200 && response.status < 300) {
      try {
        return text === '' ? undefined : (JSON.parse(text) as unknown);
      } catch {
        throw new UpstreamFailure(
          'unavailable',
          `The custody API at ${host} answered ${request.method} ${pathOnly(request.path)} with something that is not JSON`,
          request.requestId,
        );
      }
    }
    if (response.status >= 500 || response.status < 400) {
      throw new UpstreamFailure(
        'unavailable',
        `The custody API at ${host} answered with HTTP ${response.status}`,
        request.requestId,
      );
    }
    const body = parseErrorBody(text);
    if (response.status === 401) {
      // Our own credentials were refused: a configuration problem of this
      // server. Passed on as a 401 it would read as "your session ended".
      options.logger?.error(
        { path: pathOnly(request.path), code: body?.code },
        'custody API refused the console API user',
      );
      throw new ApiError(
        502,
        ERROR_CODES.upstreamAuthFailed,
        `The custody API at ${host} refused the console's API credentials${body?.code ? ` (${body.code})` : ''}; an administrator must check CUSTODY_API_KEY and the private key`,
      );
    }
    const error = new ApiError(
      response.status as ContentfulStatusCode,
      body?.code ?? `UPSTREAM_HTTP_${response.status}`,
      body?.message ??
        `The custody API at ${host} refused the request with HTTP ${response.status}`,
      body?.fields,
    );
    const retryAfter = response.headers.get('retry-after');
    if (response.status === 429 && retryAfter) error.headers['Retry-After'] = retryAfter;
    throw error;
  }

  async function send<T>(request: UpstreamRequest): Promise<T> {
    const deadline = performance.now() + options.timeoutMs;
    for (let n = 1; ; n += 1) {
      try {
        return (await attempt(request, deadline)) as T;
      } catch (error) {
        const retryable =
          request.retry &&
          n < attempts &&
          error instanceof UpstreamFailure &&
          error.reason === 'unavailable';
        // Full jitter: concurrent retries after an outage do not arrive together.
        const pause = Math.random() * backoffMs * 2 ** (n - 1);
        if (!retryable || performance.now() + pause >= deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  return { host, send };
}

export type UpstreamClient = ReturnType<typeof createUpstreamClient>;

function parseErrorBody(text: string): ApiErrorBody | undefined {
  try {
    const parsed = ApiErrorBody.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Queries may carry identifiers a client considers private: logs get the path alone. */
function pathOnly(path: string): string {
  const at = path.indexOf('?');
  return at === -1 ? path : path.slice(0, at);
}
