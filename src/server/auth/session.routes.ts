import { Hono, type Context } from 'hono';
import type { DemoAccountList } from '#contract/auth.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { ApiError } from '#contract/api-error.ts';
import type { AppEnv } from '../http/app-env.ts';
import {
  currentSession,
  demoAccounts,
  setUpAccount,
  signIn,
  signOut,
} from '#contract/endpoints/session.ts';
import { mount } from '../http/mount.ts';
import { audit } from './audit.ts';
import { assertCsrf, assertSameOrigin, clientIp } from './csrf.ts';
import { loginFailed, loginSucceeded } from './rate-limit.ts';
import { endSessionStreams, unauthorized, type AuthOptions } from './session-auth.ts';
import { secondFactorRoutes } from './second-factor.routes.ts';
import { clearSessionCookie, readSessionCookie } from './session-cookie.ts';
import { resolveSession, revokeSession } from './session.store.ts';
import { signInCheck } from './sign-in-check.ts';
import { afterPassword, sessionResponse, shouldAskForPasskey } from './sign-in.ts';
import { DEMO_STAFF } from './staff-demo.ts';
import { completeSetup } from './staff-setup.ts';
import { readSsoSettings } from './sso.store.ts';

/** /auth: sign in (and its second step), sign out, who am I, and (sandbox only) the demo accounts. */

// One answer for unknown email, wrong password and disabled member: nothing to enumerate.
const BAD_CREDENTIALS = 'The email or password is not correct';

export function sessionRoutes(options: AuthOptions) {
  const { db, clock, trustProxy } = options;
  const checkSignIn = signInCheck(options);
  // No session yet, so no CSRF token: a same-origin Origin stops login CSRF. Checked before the body is read.
  const sameOrigin = { guard: (c: Context<AppEnv>) => assertSameOrigin(c, trustProxy) };

  const app = new Hono<AppEnv>();
  mount(
    app,
    '',
    signIn,
    async ({ body: { email, password, timeZone } }, c) => {
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
      // Checked only after the right password, so the answer tells a stranger nothing.
      const sso = await readSsoSettings(db);
      if (
        sso?.enabled &&
        sso.passwordSignIn === 'break_glass' &&
        member.email !== sso.breakGlassEmail
      ) {
        await audit(c, options, {
          action: 'auth.login',
          entityType: 'STAFF',
          entityId: member.id,
          summary: 'Password sign-in refused: passwords are turned off; single sign-on only',
          outcome: 'denied',
          actor: attempt,
        });
        throw new ApiError(
          403,
          ERROR_CODES.passwordSignInOff,
          `Password sign-in is turned off; use "Sign in with ${sso.label}"`,
        );
      }
      // A session, or the second factor's step first (auth/sign-in.ts).
      return afterPassword(c, options, member, timeZone);
    },
    sameOrigin,
  );
  app.route('/', secondFactorRoutes(options));
  mount(
    app,
    '',
    setUpAccount,
    async ({ body: { token, password } }, c) => {
      try {
        const member = await completeSetup(db, token, password, clock.now());
        await audit(c, options, {
          action: 'staff.setup',
          entityType: 'STAFF',
          entityId: member.id,
          summary: `${member.email} chose their password with their set-up code`,
          outcome: 'success',
          actor: { type: 'ANONYMOUS', id: null, name: member.email },
        });
        return { email: member.email };
      } catch (error) {
        if (error instanceof ApiError)
          await audit(c, options, {
            action: 'staff.setup',
            entityType: 'STAFF',
            summary: `Refused: ${error.message}`,
            outcome: 'failed',
          });
        throw error;
      }
    },
    sameOrigin,
  );
  mount(
    app,
    '',
    signOut,
    async (_input, c) => {
      const token = readSessionCookie(c, trustProxy);
      clearSessionCookie(c, trustProxy);
      if (token) {
        const found = await resolveSession(db, token, clock.now());
        if (found.ok) {
          // The CSRF token is required to sign out, or another site could end a member's session.
          assertCsrf(c, found.session.csrfToken, trustProxy);
          await revokeSession(db, found.session.id, clock.now());
          endSessionStreams(options, [found.session.id]);
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
      return undefined;
    },
    sameOrigin,
  );
  mount(app, '', currentSession, async (_input, c) => {
    const token = readSessionCookie(c, trustProxy);
    if (!token) throw unauthorized('Not signed in');
    const found = await resolveSession(db, token, clock.now());
    if (!found.ok) throw unauthorized('Your session has ended; sign in again');
    c.header('Cache-Control', 'no-store');
    return sessionResponse(
      found.member,
      found.session,
      await shouldAskForPasskey(options, found.member),
    );
  });
  mount(app, '', demoAccounts, (_input, c) => {
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
    return Promise.resolve(body);
  });
  return app;
}
