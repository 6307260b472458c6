import { Hono, type Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { ssoSignInOptions } from '#contract/endpoints/sso.ts';
import type { SsoRefusal } from '#contract/sso.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import { rule } from '../../http/route-rule.ts';
import { audit } from '../audit.ts';
import { clientIp, isHttps, requestOrigin } from '../csrf.ts';
import type { AuthOptions } from '../session-auth.ts';
import { setSessionCookie } from '../session-cookie.ts';
import { createSession, SESSION_ABSOLUTE_MS } from '../session.store.ts';
import { findStaffByEmail, type StaffRecord } from '../staff.store.ts';
import { authorizationUrl, completeSignIn, type PendingSignIn } from './oidc.ts';
import { applyGrant, createProvisioned, findBySubject, linkSubject } from './provision.ts';
import { keepRefreshToken } from './refresh-tokens.ts';
import { grantOf, readGroupRoles, readSsoSettings } from '../sso.store.ts';

/**
 * Signing in through the company's OpenID provider: GET /auth/sso/start
 * leaves for the provider (authorization code with PKCE, state and nonce),
 * GET /auth/sso/callback comes back, checks all three (openid-client), and
 * signs the member in, provisioning or linking them by their groups. Every
 * refusal lands on `/login?sso=<reason>` and leaves an audit row.
 */

export const SSO_START_PATH = '/auth/sso/start';
const CALLBACK_PATH = '/auth/sso/callback';
const PENDING_MAX_AGE_S = 600;

/** The cookie holding state, nonce and PKCE verifier while the member is at the provider. */
function pendingCookieName(c: Context, options: AuthOptions): string {
  return isHttps(c, options.trustProxy) ? '__Host-cc_sso' : 'cc_sso';
}

export function callbackUrl(c: Context, options: AuthOptions): string {
  return `${requestOrigin(c, options.trustProxy)}${CALLBACK_PATH}`;
}

/** A path on this console, else `/`: never another site. */
function localPath(value: string | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\'))
    return '/';
  return value.slice(0, 2048);
}

function readPending(raw: string | undefined): PendingSignIn | null {
  if (!raw) return null;
  try {
    const parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as unknown;
    if (!parsed || typeof parsed !== 'object') return null;
    const { state, nonce, verifier, returnTo } = parsed as Record<string, unknown>;
    if (
      typeof state !== 'string' ||
      typeof nonce !== 'string' ||
      typeof verifier !== 'string' ||
      typeof returnTo !== 'string'
    )
      return null;
    return { state, nonce, verifier, returnTo: localPath(returnTo) };
  } catch {
    return null;
  }
}

/** openid-client's reason, with the claim it found wrong (nonce, iss, aud…) where a cause names one. */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  let claim = '';
  // openid-client wraps oauth4webapi's error, whose own cause names the claim.
  for (let cause: unknown = error.cause, depth = 0; cause && depth < 3; depth += 1) {
    if (typeof cause !== 'object') break;
    if ('claim' in cause && typeof cause.claim === 'string') {
      claim = `: ${cause.claim}`;
      break;
    }
    cause = 'cause' in cause ? cause.cause : undefined;
  }
  return `${error.message}${claim}`;
}

const SIGN_IN_RULE = rule({
  permission: 'public',
  action: 'sign in',
  audit: { action: 'auth.login', entityType: 'STAFF', selfRecorded: true, anonymous: true },
});

export function ssoSignInRoutes(options: AuthOptions) {
  const { db, clock } = options;
  const app = new Hono<AppEnv>();

  mount(app, '', ssoSignInOptions, async () => {
    const settings = await readSsoSettings(db);
    return {
      sso: settings?.enabled ? { label: settings.label, startPath: SSO_START_PATH } : null,
      passwordSignIn: settings?.enabled ? settings.passwordSignIn : 'everyone',
    };
  });

  const refuse = async (
    c: Context<AppEnv>,
    reason: SsoRefusal,
    summary: string,
    member?: StaffRecord,
  ) => {
    await audit(c, options, {
      action: 'auth.login',
      entityType: member ? 'STAFF' : null,
      entityId: member?.id ?? null,
      summary: `Single sign-on refused: ${summary}`,
      outcome: 'denied',
      actor: { type: 'ANONYMOUS', id: null, name: member?.email ?? null },
    });
    return c.redirect(`/login?sso=${reason}`, 303);
  };

  app.get(SSO_START_PATH, SIGN_IN_RULE, async (c) => {
    const settings = await readSsoSettings(db);
    if (!settings?.enabled) return refuse(c, 'unconfigured', 'single sign-on is not set up');
    let started;
    try {
      started = await authorizationUrl(
        settings,
        callbackUrl(c, options),
        localPath(c.req.query('redirect')),
      );
    } catch (error) {
      c.get('log').warn({ err: error }, 'single sign-on: the provider could not be discovered');
      return refuse(c, 'provider', `the provider at ${settings.issuer} did not answer`);
    }
    setCookie(
      c,
      pendingCookieName(c, options),
      Buffer.from(JSON.stringify(started.pending)).toString('base64url'),
      {
        httpOnly: true,
        // Lax, not Strict: the provider sends the browser back here from its own site.
        sameSite: 'Lax',
        path: '/',
        secure: isHttps(c, options.trustProxy),
        maxAge: PENDING_MAX_AGE_S,
      },
    );
    return c.redirect(started.url.href, 302);
  });

  app.get(CALLBACK_PATH, SIGN_IN_RULE, async (c) => {
    const cookieName = pendingCookieName(c, options);
    const pending = readPending(getCookie(c, cookieName));
    // Used once: a second arrival with the same code finds nothing to check it against.
    deleteCookie(c, cookieName, { path: '/', secure: isHttps(c, options.trustProxy) });
    const settings = await readSsoSettings(db);
    if (!settings?.enabled) return refuse(c, 'unconfigured', 'single sign-on is not set up');
    if (!pending) return refuse(c, 'state', 'no sign-in was started in this browser');
    if (c.req.query('error'))
      return refuse(
        c,
        'provider',
        `the provider answered ${c.req.query('error')}: ${c.req.query('error_description') ?? ''}`,
      );
    if (c.req.query('state') !== pending.state)
      return refuse(c, 'state', 'the state sent back is not the one this browser was given');

    const url = new URL(callbackUrl(c, options));
    url.search = new URL(c.req.url).search;
    let identity;
    try {
      identity = await completeSignIn(settings, url, pending);
    } catch (error) {
      const message = describeFailure(error);
      c.get('log').warn({ err: error }, 'single sign-on: the code exchange failed');
      return refuse(c, 'provider', `the code exchange or ID token check failed (${message})`);
    }

    const grant = grantOf(identity.groups, await readGroupRoles(db));
    let member = await findBySubject(db, identity.subject);
    if (!member) {
      if (!identity.email || !identity.emailVerified)
        return refuse(c, 'unverified', `${identity.subject} has no verified email`);
      const byEmail = await findStaffByEmail(db, identity.email);
      if (byEmail?.idpSubject)
        return refuse(
          c,
          'unverified',
          `${identity.email} is already linked to another provider account`,
          byEmail,
        );
      if (byEmail) member = await linkSubject(db, byEmail, identity.subject);
    }
    if (member?.disabled) return refuse(c, 'disabled', `${member.email} is disabled`, member);
    if (!grant)
      return refuse(
        c,
        'unmapped',
        `${identity.email ?? identity.subject} is in no mapped group (${identity.groups.join(', ') || 'none'})`,
        member,
      );
    let summary: string;
    if (!member) {
      member = await createProvisioned(db, clock, {
        email: identity.email ?? '',
        name: identity.name ?? identity.email ?? identity.subject,
        grant,
        by: 'oidc',
        idpSubject: identity.subject,
      });
      summary = `Signed in with single sign-on as ${member.role}; provisioned from groups ${identity.groups.join(', ')}`;
    } else {
      const applied = await applyGrant(options, member, grant, identity.name);
      member = applied.member;
      summary = `Signed in with single sign-on as ${member.role}${applied.accessChanged ? ' (role or scope updated from the provider’s groups)' : ''}`;
    }

    // A sign-in that brings a refresh token makes it the member's for this configuration; one
    // that brings none (Google's after the first consent) is checked with the one kept before.
    const now = clock.now();
    const provider = { issuer: settings.issuer, clientId: settings.clientId };
    if (identity.refreshToken)
      await keepRefreshToken(db, { staffId: member.id, ...provider }, identity.refreshToken, now);
    const { token } = await createSession(db, member.id, now, {
      ip: clientIp(c, options.trustProxy),
      userAgent: c.req.header('user-agent') ?? null,
      sso: {
        ...provider,
        accessToken: identity.accessToken,
        accessExpiresAt:
          identity.accessExpiresIn === null
            ? null
            : new Date(now.getTime() + identity.accessExpiresIn * 1000),
      },
    });
    setSessionCookie(c, options.trustProxy, token, SESSION_ABSOLUTE_MS / 1000);
    c.set('actor', { type: 'STAFF', id: member.id });
    c.set('staff', member);
    await audit(c, options, {
      action: 'auth.login',
      entityType: 'STAFF',
      entityId: member.id,
      summary,
      outcome: 'success',
    });
    // A page, not a redirect: the session cookie is SameSite=Strict, and a redirect that
    // began at the provider's site would arrive without it. This page's own navigation does not.
    const to = pending.returnTo;
    return c.html(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${to.replace(/[&"<>]/g, (ch) => `&#${ch.charCodeAt(0)};`)}"><title>Signed in</title></head><body><main><p>Signed in. <a href="${to.replace(/[&"<>]/g, (ch) => `&#${ch.charCodeAt(0)};`)}">Continue to the console</a>.</p></main></body></html>`,
    );
  });
  return app;
}
