import { Hono } from 'hono';
import { LoginRequest, type DemoAccountList, type SessionResponse } from '../../contract/auth.ts';
import { ERROR_CODES } from '../../contract/common.ts';
import { ApiError } from '../../contract/api-error.ts';
import type { AppEnv } from '../http/app-env.ts';
import { rule } from '../http/route-rule.ts';
import { readJsonBodyAs } from '../http/json-body.ts';
import { audit } from './audit.ts';
import { assertCsrf, assertSameOrigin, clientIp } from './csrf.ts';
import { loginFailed, loginSucceeded } from './rate-limit.ts';
import { unauthorized, type AuthOptions } from './session-auth.ts';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from './session-cookie.ts';
import { signInCheck } from './sign-in-check.ts';
import {
  createSession,
  idleExpiresAt,
  resolveSession,
  revokeSession,
  SESSION_ABSOLUTE_MS,
  type SessionRow,
} from './session.store.ts';
import { DEMO_STAFF } from './staff-demo.ts';
import { toWireStaff, type StaffRecord } from './staff.store.ts';

/** /auth: sign in, sign out, who am I, and (sandbox only) the demo accounts. */

// One answer for unknown email, wrong password and disabled member: nothing to enumerate.
const BAD_CREDENTIALS = 'The email or password is not correct';

function sessionResponse(member: StaffRecord, session: SessionRow): SessionResponse {
  return {
    member: toWireStaff(member),
    csrfToken: session.csrfToken,
    expiresAt: session.expiresAt.toISOString(),
    idleExpiresAt: idleExpiresAt(session).toISOString(),
  };
}

const PUBLIC_READ = { permission: 'public', action: 'read', audit: false } as const;

export function sessionRoutes(options: AuthOptions) {
  const { db, clock, trustProxy } = options;
  const checkSignIn = signInCheck(options);

  return new Hono<AppEnv>()
    .post(
      '/auth/login',
      rule({
        permission: 'public',
        action: 'sign in',
        audit: { action: 'auth.login', entityType: 'STAFF', selfRecorded: true, anonymous: true },
      }),
      async (c) => {
        // No session yet, so no CSRF token: a same-origin Origin stops login CSRF.
        assertSameOrigin(c, trustProxy);
        const { email, password } = await readJsonBodyAs(c, LoginRequest);
        const ip = clientIp(c, trustProxy);
        const now = clock.now();
        const attempt = { type: 'ANONYMOUS', id: null, name: email };

        const { reservation, member, matches } = await checkSignIn(c, { email, password, ip, now });
        if (!member || !matches || member.disabled) {
          await loginFailed(db, reservation, clock.now());
          await audit(c, options, {
            action: 'auth.login',
            entityType: member ? 'STAFF' : null,
            entityId: member?.id ?? null,
            summary: `Sign-in failed for ${email}`,
            outcome: 'failed',
            actor: attempt,
          });
          throw unauthorized(BAD_CREDENTIALS);
        }

        await loginSucceeded(db, email, ip, reservation);
        const { token, row } = await createSession(db, member.id, now, {
          ip,
          userAgent: c.req.header('user-agent') ?? null,
        });
        setSessionCookie(c, trustProxy, token, SESSION_ABSOLUTE_MS / 1000);
        c.set('actor', { type: 'STAFF', id: member.id });
        c.set('staff', member);
        await audit(c, options, {
          action: 'auth.login',
          entityType: 'STAFF',
          entityId: member.id,
          summary: `Signed in as ${member.role}`,
          outcome: 'success',
        });
        return c.json(sessionResponse(member, row));
      },
    )
    .post(
      '/auth/logout',
      rule({
        permission: 'public',
        action: 'sign out',
        audit: { action: 'auth.logout', entityType: 'STAFF', selfRecorded: true },
      }),
      async (c) => {
        assertSameOrigin(c, trustProxy);
        const token = readSessionCookie(c, trustProxy);
        clearSessionCookie(c, trustProxy);
        if (token) {
          const found = await resolveSession(db, token, clock.now());
          if (found.ok) {
            // The CSRF token is required to sign out, or another site could end a member's session.
            assertCsrf(c, found.session.csrfToken, trustProxy);
            await revokeSession(db, found.session.id, clock.now());
            c.set('actor', { type: 'STAFF', id: found.member.id });
            c.set('staff', found.member);
            await audit(c, options, {
              action: 'auth.logout',
              entityType: 'STAFF',
              entityId: found.member.id,
              summary: 'Signed out',
              outcome: 'success',
            });
          }
        }
        return c.body(null, 204);
      },
    )
    .get('/auth/session', rule(PUBLIC_READ), async (c) => {
      const token = readSessionCookie(c, trustProxy);
      if (!token) throw unauthorized('Not signed in');
      const found = await resolveSession(db, token, clock.now());
      if (!found.ok) throw unauthorized('Your session has ended; sign in again');
      c.header('Cache-Control', 'no-store');
      return c.json(sessionResponse(found.member, found.session));
    })
    .get('/auth/demo-accounts', rule(PUBLIC_READ), (c) => {
      if (!options.demoAccounts)
        throw new ApiError(
          404,
          ERROR_CODES.routeNotFound,
          'Demo accounts exist only in sandbox mode',
        );
      c.header('Cache-Control', 'no-store');
      const body: DemoAccountList = {
        results: DEMO_STAFF.map(({ email, name, role, password }) => ({
          email,
          name,
          role,
          password,
        })),
      };
      return c.json(body);
    });
}
