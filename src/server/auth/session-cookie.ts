import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { HOST_SESSION_COOKIE, SESSION_COOKIE } from '#contract/auth.ts';
import { isHttps, type TrustProxy } from './csrf.ts';

/**
 * The session cookie. Over HTTPS (directly, or behind a trusted proxy's
 * X-Forwarded-Proto) it is `__Host-cc_session`: Secure, Path=/, no Domain —
 * a cookie of that name can only have been set by this very origin, so a
 * page on a sibling subdomain (which may set cookies for the parent domain)
 * cannot plant its own session in a member's browser. Over plain HTTP (the
 * local sandbox) a browser refuses `__Host-` cookies, so it is `cc_session`.
 * Each request reads only the name its scheme uses: over HTTPS a plain
 * `cc_session` is ignored, being exactly what a sibling could plant.
 */
export function sessionCookieName(c: Context, trustProxy: TrustProxy): string {
  return isHttps(c, trustProxy) ? HOST_SESSION_COOKIE : SESSION_COOKIE;
}

export function readSessionCookie(c: Context, trustProxy: TrustProxy): string | undefined {
  return getCookie(c, sessionCookieName(c, trustProxy));
}

export function setSessionCookie(
  c: Context,
  trustProxy: TrustProxy,
  token: string,
  maxAgeSeconds: number,
): void {
  setCookie(c, sessionCookieName(c, trustProxy), token, {
    httpOnly: true,
    sameSite: 'Strict',
    path: '/',
    secure: isHttps(c, trustProxy),
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(c: Context, trustProxy: TrustProxy): void {
  deleteCookie(c, sessionCookieName(c, trustProxy), {
    path: '/',
    secure: isHttps(c, trustProxy),
  });
}
