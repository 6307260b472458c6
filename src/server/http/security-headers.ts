import type { Context, MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from './app-env.ts';

/**
 * Browser-facing headers. The built SPA is one external module
 * script and one stylesheet (no inline script, no injected <style>; React's
 * style props go through the CSSOM, which CSP allows), so 'self' suffices
 * everywhere. HSTS only over HTTPS: on plain HTTP browsers ignore it, and
 * sending it from a dev server invites confusion. Whether a request came
 * over HTTPS is the caller's to say (auth/csrf.ts's `isHttps`, with TRUST_PROXY).
 */
const CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};

export function securityHeaders(
  overHttps: (c: Context<AppEnv>) => boolean,
): MiddlewareHandler<AppEnv> {
  const headers = secureHeaders({
    contentSecurityPolicy: CSP,
    referrerPolicy: 'same-origin',
    xFrameOptions: 'DENY',
    strictTransportSecurity: false,
  });
  return async (c, next) => {
    await headers(c, next);
    if (overHttps(c)) c.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  };
}
