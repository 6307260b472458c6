import type { Context, MiddlewareHandler } from 'hono';
import { ERROR_CODES } from '#contract/common.ts';
import type { AppEnv } from './app-env.ts';
import { ApiError } from '#contract/api-error.ts';

/**
 * Request bodies (docs/security.md): limited in size and in time, and read
 * only when something asks for them, which the checks do only once the
 * caller is identified (a session, or an API client's token verified from
 * its headers). `limitBody` reads nothing: it refuses a declared
 * Content-Length above the limit and notes the limit for `readBodyText`, the
 * one reader, which counts a body sent without Content-Length as it arrives,
 * stops the moment it passes the limit (413), and gives up on a body that
 * has not arrived within `BODY_READ_TIMEOUT_MS` (408). A refusal that leaves
 * the body unread closes the connection after its answer.
 *
 * Why: the audit used to read every body before anyone was authenticated, and
 * 1,500 anonymous connections each sending 1 MiB − 1 byte and stalling took
 * the server from 487 MB to 1.8 GB resident, for good.
 *
 * The largest real body is a contract call's calldata, far below the API's
 * limit; a sign-in is two short strings.
 */
export const MAX_API_BODY_BYTES = 1024 * 1024;
export const MAX_AUTH_BODY_BYTES = 16 * 1024;

/**
 * How long a body may take to arrive once it is read: a 1 MiB body at
 * 1 Mbit/s takes 8 s, a real one (a few KB) milliseconds. The server's own
 * `requestTimeout` (server.ts) bounds a request nobody reads.
 */
export const BODY_READ_TIMEOUT_MS = 10_000;

export type BodyLimit = NonNullable<AppEnv['Variables']['bodyLimit']>;

const describe = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;

function tooLarge(maxBytes: number): ApiError {
  const error = new ApiError(
    413,
    ERROR_CODES.bodyTooLarge,
    `The request body is larger than ${describe(maxBytes)} (${maxBytes} bytes), the most this endpoint accepts`,
  );
  // The rest of the body is not read: the connection cannot carry another request.
  error.headers['Connection'] = 'close';
  return error;
}

function tooSlow(timeoutMs: number): ApiError {
  const error = new ApiError(
    408,
    ERROR_CODES.requestTimeout,
    `The request body did not arrive within ${timeoutMs / 1000} s; send it again`,
  );
  error.headers['Connection'] = 'close';
  return error;
}

export function limitBody(
  maxBytes: number,
  timeoutMs = BODY_READ_TIMEOUT_MS,
): MiddlewareHandler<AppEnv> {
  const limit: BodyLimit = { maxBytes, timeoutMs };
  return async (c, next) => {
    // A GET or HEAD has no body to count (a fetch Request drops one).
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = c.req.header('content-length');
    const chunked = c.req.header('transfer-encoding') !== undefined;
    if (declared !== undefined && !chunked) {
      if (Number.parseInt(declared, 10) > maxBytes) throw tooLarge(maxBytes);
    }
    c.set('bodyLimit', limit);
    await next();
    // Answered without reading the body (a refusal before the caller was known): the
    // connection closes after the answer instead of reading the rest to carry another request.
    const unread = (c.req.bodyCache as BodyCache).text === undefined;
    if (unread && (chunked || Number.parseInt(declared ?? '0', 10) > 0))
      c.res.headers.set('Connection', 'close');
  };
}

// What Hono keeps of a body once read (`c.req.text()` and `json()` answer from it).
type BodyCache = { text?: Promise<string> };

/**
 * The request body as text, read once per request within its limits (a
 * second call, or `c.req.text()`, answers from the first read). A request
 * that `limitBody` did not see is held to the API's limits.
 */
export function readBodyText(c: Context<AppEnv>): Promise<string> {
  const cache = c.req.bodyCache as BodyCache;
  if (cache.text) return cache.text;
  const limit = c.get('bodyLimit') ?? {
    maxBytes: MAX_API_BODY_BYTES,
    timeoutMs: BODY_READ_TIMEOUT_MS,
  };
  const read = withDeadline(readWithin(c, limit.maxBytes), limit.timeoutMs);
  cache.text = read;
  return read;
}

async function readWithin(c: Context<AppEnv>, maxBytes: number): Promise<string> {
  const declared = c.req.header('content-length');
  if (declared !== undefined && !c.req.header('transfer-encoding')) {
    // Node's parser ends the body at its declared length, which limitBody has checked.
    return c.req.raw.text();
  }
  const body = c.req.raw.body;
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    // Not cancelled: cancelling the stream destroys the socket before the answer is sent.
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

function withDeadline<T>(read: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(tooSlow(timeoutMs)), timeoutMs);
  });
  return Promise.race([read, deadline]).finally(() => clearTimeout(timer));
}
