import { ERROR_CODES } from '#contract/common.ts';
import { timingSafeEqual } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import { CSRF_HEADER } from '#contract/auth.ts';
import { ApiError } from '#contract/api-error.ts';
import type { AppEnv } from '../http/app-env.ts';

/**
 * CSRF defence for session callers: a mutation must carry the
 * session's token in X-CSRF-Token (a page on another origin cannot read it)
 * and an Origin equal to the server's own (a second, independent check the
 * browser fills in). Also where a request's own origin and client address are
 * worked out, honouring X-Forwarded-* only behind a trusted proxy.
 */

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * TRUST_PROXY: how many proxies in front append to X-Forwarded-For (0 or
 * false: believe no X-Forwarded-* header; true: one).
 */
export type TrustProxy = boolean | number;

function proxyHops(trustProxy: TrustProxy): number {
  return trustProxy === true ? 1 : trustProxy === false ? 0 : trustProxy;
}

export function isMutation(method: string): boolean {
  return MUTATING.has(method.toUpperCase());
}

function firstForwarded(value: string | undefined): string | undefined {
  return value?.split(',')[0]?.trim() || undefined;
}

/** `https` or `http`: the scheme this request reached us on. */
function requestScheme(c: Context, trustProxy: TrustProxy): string {
  const forwarded = trustProxy && firstForwarded(c.req.header('x-forwarded-proto'));
  if (forwarded) return forwarded.toLowerCase();
  // The URL's own scheme without parsing the URL: this runs on every request
  // (security-headers.ts), and new URL() was about 2% of the list page's time.
  return c.req.url.startsWith('https:') ? 'https' : 'http';
}

/** `https://console.example.com`: the scheme and Host this request reached us on. */
export function requestOrigin(c: Context, trustProxy: TrustProxy): string {
  const host =
    (trustProxy && firstForwarded(c.req.header('x-forwarded-host'))) ||
    c.req.header('host') ||
    new URL(c.req.url).host;
  return `${requestScheme(c, trustProxy)}://${host}`.toLowerCase();
}

export function isHttps(c: Context, trustProxy: TrustProxy): boolean {
  return requestScheme(c, trustProxy) === 'https';
}

/**
 * The caller's address: the socket's, or behind trusted proxies the address
 * the outermost of them saw. Each proxy (nginx, an ALB, Envoy) appends the
 * address it was reached from to X-Forwarded-For, after whatever the client
 * wrote there, so only the right-most `hops` entries were written by a
 * proxy: with one proxy the last entry, with two the one before it. Anything
 * further left is the client's own claim, and believing it let a guesser
 * pose as any address (a fresh throttle for every guess) or as a victim's
 * (a wait for the victim).
 */
export function clientIp(c: Context, trustProxy: TrustProxy): string {
  const hops = proxyHops(trustProxy);
  if (hops > 0) {
    const entries = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    // Fewer entries than proxies: a proxy that set the header instead of appending; its value is
    // still the left-most.
    const forwarded = entries[Math.max(0, entries.length - hops)];
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    // app.request() in tests has no socket.
    return 'unknown';
  }
}

export function assertSameOrigin(c: Context<AppEnv>, trustProxy: TrustProxy): void {
  const origin = c.req.header('origin')?.toLowerCase();
  // The public origin (PUBLIC_URL, set by http/public-origin.ts), not the Host a rebinding page chooses.
  const allowed = c.get('allowedOrigins');
  if (!origin || !(allowed ? allowed.has(origin) : origin === requestOrigin(c, trustProxy)))
    throw new ApiError(
      403,
      ERROR_CODES.csrfRejected,
      origin
        ? `Requests from ${origin} are not accepted`
        : 'The Origin header is required for this request',
    );
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function assertCsrf(
  c: Context<AppEnv>,
  expectedToken: string,
  trustProxy: TrustProxy,
): void {
  const token = c.req.header(CSRF_HEADER);
  if (!token || !sameToken(token, expectedToken))
    throw new ApiError(
      403,
      ERROR_CODES.csrfRejected,
      token
        ? `The ${CSRF_HEADER} header does not match this session`
        : `The ${CSRF_HEADER} header is required for this request`,
    );
  assertSameOrigin(c, trustProxy);
}
