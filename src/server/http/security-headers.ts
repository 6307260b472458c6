import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.ts';

/**
 * Browser-facing headers. The built SPA is one external module
 * script and one stylesheet (no inline script, no injected <style>; React's
 * style props go through the CSSOM, which CSP allows), so 'self' suffices
 * everywhere, but for a server-rendered page's stylesheet written into its
 * head and the loader that starts its app, each allowed by its hash alone
 * (`pagePolicy`). HSTS only over HTTPS: on
 * plain HTTP browsers ignore it, and sending it from a dev server invites
 * confusion. Whether a request came
 * over HTTPS is the caller's to say (auth/csrf.ts's `isHttps`, with TRUST_PROXY).
 *
 * They are what hono's secureHeaders sets with this policy (its defaults,
 * `Referrer-Policy: same-origin`, `X-Frame-Options: DENY`, no HSTS of its
 * own; security-headers.test.ts holds the two together), written out once:
 * the API's JSON answers take them in one record with the rest of their
 * headers (http/compress-json.ts, `finalHeaders`), instead of one Headers
 * call each per answer.
 */
const policy = (styleSources: readonly string[], scriptSources: readonly string[]) =>
  [
    "default-src 'self'",
    ["script-src 'self'", ...scriptSources].join(' '),
    ["style-src 'self'", ...styleSources].join(' '),
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

const CSP = policy([], []);

/**
 * The policy of a server-rendered page whose stylesheets are inlined
 * (http/inline-styles.ts) and whose app is started by a loader written into
 * it (http/server-render.ts, `pageParts`): the same, with those sheets'
 * hashes allowed as styles and the loader's as a script. A handler that sets
 * it keeps it: `securityHeaders` sets the default policy only where none was
 * set.
 */
export function pagePolicy(
  styleSources: readonly string[],
  scriptSources: readonly string[],
): string {
  return styleSources.length || scriptSources.length ? policy(styleSources, scriptSources) : CSP;
}

const SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['cross-origin-resource-policy', 'same-origin'],
  ['cross-origin-opener-policy', 'same-origin'],
  ['origin-agent-cluster', '?1'],
  ['referrer-policy', 'same-origin'],
  ['x-content-type-options', 'nosniff'],
  ['x-dns-prefetch-control', 'off'],
  ['x-download-options', 'noopen'],
  ['x-frame-options', 'DENY'],
  ['x-permitted-cross-domain-policies', 'none'],
  ['x-xss-protection', '0'],
  ['content-security-policy', CSP],
];

const HSTS = ['strict-transport-security', 'max-age=31536000; includeSubDomains'] as const;

/** The security headers of an answer, by lower-case name: over HTTPS with HSTS. */
export const SECURITY_HEADER_RECORDS: Readonly<Record<'http' | 'https', Record<string, string>>> = {
  http: Object.fromEntries(SECURITY_HEADERS),
  https: Object.fromEntries([...SECURITY_HEADERS, HSTS]),
};

/** Answers that already carry the security headers in their one record (http/compress-json.ts). */
const complete = new WeakSet<Response>();

/** `res` was made with SECURITY_HEADER_RECORDS among its headers: securityHeaders leaves it be. */
export function markSecured(res: Response): void {
  complete.add(res);
}

export function securityHeaders(
  overHttps: (c: Context<AppEnv>) => boolean,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (complete.has(c.res)) return;
    const headers = c.res.headers;
    for (const [name, value] of SECURITY_HEADERS)
      if (name !== 'content-security-policy' || !headers.has(name)) headers.set(name, value);
    headers.delete('x-powered-by');
    if (overHttps(c)) headers.set(...HSTS);
  };
}
