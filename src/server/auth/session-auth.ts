import type { Context, MiddlewareHandler } from 'hono';
import { roleAllows, type Permission, type StaffRole } from '#contract/auth.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { API_PREFIX } from '#contract/paths.ts';
import type { Database } from '../db/client.ts';
import { ApiError } from '#contract/api-error.ts';
import type { AppEnv } from '../http/app-env.ts';
import { ruleOf } from '../http/route-rule.ts';
import { assertCsrf, isMutation, type TrustProxy } from './csrf.ts';
import type { Clock } from '../clock.ts';
import type { ApprovalSigning, SecondFactorPolicy } from './second-factor.ts';
import { readSessionCookie } from './session-cookie.ts';
import { resolveSession, type SessionLookup } from './session.store.ts';

/**
 * Who is calling /api/external and /api/console. An API client (Api-Key
 * header) is checked by the API-client token middleware, which runs first and
 * sets the actor; everyone else needs a live staff session, and a session's
 * mutations need the CSRF token and a same-origin Origin. Session callers
 * are then held to the permission their route declares (`http/route-rule.ts`)
 * and to their sub-organization scope.
 */

export interface AuthOptions {
  db: Database;
  clock: Clock;
  /** Honour X-Forwarded-Proto/-Host/-For: only behind proxies that set them (TRUST_PROXY). */
  trustProxy: TrustProxy;
  /** Sandbox mode: demo staff exist and /auth/demo-accounts lists them. */
  demoAccounts: boolean;
  /** STAFF_SECOND_FACTOR: who must have a second factor to sign in (default `privileged`). */
  secondFactor?: SecondFactorPolicy;
  /** STAFF_PASSKEY_PROMPT: approvers and admins without a passkey are reminded to register one (default on). */
  passkeyPrompt?: boolean;
  /**
   * APPROVAL_SIGNING: `registered` (default), a member with at least one passkey signs every
   * decision, the others decide as before; `required`, every staff decision is signed, and a
   * member without a passkey must register one first (capabilities/approvals/signing/).
   */
  approvalSigning?: ApprovalSigning;
  /** This server's open event streams (capabilities/live/hub.ts): see `endSessionStreams`. */
  liveStreams?: { endSessions(sessionIds: readonly string[]): void };
}

/**
 * Ends the open event streams of these sessions on this server, now: call it once they are
 * revoked (sign-out, a password or factor change, a member disabled or their role or scope
 * changed). Another server's streams of them end too, without being told: each hub asks the
 * database whether its streams' sessions are live before it sends them an event, and at its
 * poll (capabilities/live/hub.ts).
 */
export function endSessionStreams(options: AuthOptions, sessionIds: readonly string[]): void {
  if (sessionIds.length > 0) options.liveStreams?.endSessions(sessionIds);
}

const REFUSED_SESSION: Record<Exclude<SessionLookup, { ok: true }>['reason'], string> = {
  unknown: 'Your session is not valid; sign in again',
  revoked: 'Your session has ended; sign in again',
  expired: 'Your session has expired (sessions last 8 hours); sign in again',
  idle: 'Your session expired after 30 minutes without activity; sign in again',
  disabled: 'Your session has ended; sign in again',
};

export function unauthorized(
  message = 'Sign in or present an API-client token to use this API',
): ApiError {
  return new ApiError(401, ERROR_CODES.unauthorized, message);
}

/** Resolves the session cookie into c.var (staff, session, actor, scope), or throws 401. */
async function authenticateSession(c: Context<AppEnv>, options: AuthOptions): Promise<void> {
  const token = readSessionCookie(c, options.trustProxy);
  if (!token) throw unauthorized();
  const found = await resolveSession(options.db, token, options.clock.now());
  if (!found.ok) throw unauthorized(REFUSED_SESSION[found.reason]);
  c.set('staff', found.member);
  c.set('session', { id: found.session.id, csrfToken: found.session.csrfToken });
  c.set('actor', { type: 'STAFF', id: found.member.id });
  c.set('scope', { subOrgIds: found.member.subOrgIds ?? null });
  if (isMutation(c.req.method)) assertCsrf(c, found.session.csrfToken, options.trustProxy);
}

function refuseRole(role: StaffRole, action: string): ApiError {
  const article = role === 'admin' ? 'an' : 'a';
  return new ApiError(
    403,
    ERROR_CODES.forbiddenRole,
    `You are signed in as ${article} ${role}; the ${role} role cannot ${action}`,
  );
}

interface Requirement {
  permission: Permission;
  action: string;
}

/**
 * The permission this request's route declares. A request no rule covers (a
 * route miss, or a route someone forgot to give a rule) fails closed: reads
 * need `read`, anything else `admin`.
 */
export function requirementOf(c: Context<AppEnv>): Requirement | null {
  const declared = ruleOf(c)?.rule;
  if (declared) {
    if (declared.permission === 'public') return null;
    return { permission: declared.permission, action: declared.action };
  }
  const method = c.req.method.toUpperCase();
  if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS')
    return { permission: 'read', action: 'read' };
  const path = c.req.path.startsWith(`${API_PREFIX}/`)
    ? c.req.path.slice(API_PREFIX.length)
    : c.req.path;
  return { permission: 'admin', action: `${method} ${path}` };
}

/** Holds a signed-in member to the permission of the route they called. */
function authorizeStaff(c: Context<AppEnv>): void {
  const member = c.get('staff');
  if (!member) throw unauthorized();
  const need = requirementOf(c);
  if (need && !roleAllows(member.role, need.permission)) throw refuseRole(member.role, need.action);
}

/** For /api/external/*: an API client's actor, or a staff session held to its role. */
export function custodyApiAuth(options: AuthOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (c.get('actor')) return next();
    // An Api-Key the token middleware did not accept never falls back to a cookie.
    if (c.req.header('api-key') !== undefined)
      throw unauthorized('The API-client token was not accepted');
    await authenticateSession(c, options);
    authorizeStaff(c);
    return next();
  };
}

/** For /api/console/*: staff sessions only, each held to its route's permission. */
export function consoleApiAuth(options: AuthOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await authenticateSession(c, options);
    authorizeStaff(c);
    return next();
  };
}
