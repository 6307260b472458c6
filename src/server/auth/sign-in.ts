import type { Context } from 'hono';
import {
  type LoginAnswer,
  type SecondFactorChallenge,
  type SessionResponse,
} from '#contract/auth.ts';
import { knownTimeZone } from '#contract/display-settings.ts';
import { effectiveDisplay } from '#contract/display.ts';
import type { AppEnv } from '../http/app-env.ts';
import { audit } from './audit.ts';
import { clientIp } from './csrf.ts';
import { isDemoMember, mustHaveFactor, newTotpSecret, otpauthUri } from './second-factor.ts';
import { createChallenge, getFactor, isEnrolled } from './second-factor.store.ts';
import { assertionOptions, relyingParty } from './passkeys.ts';
import { hasPasskey, listPasskeys } from './passkeys.store.ts';
import type { AuthOptions } from './session-auth.ts';
import { setSessionCookie } from './session-cookie.ts';
import {
  createSession,
  idleExpiresAt,
  SESSION_ABSOLUTE_MS,
  type SessionRow,
} from './session.store.ts';
import { toWireStaff, type StaffRecord } from './staff.store.ts';

/**
 * The end of a sign-in, shared by POST /auth/login and its second step:
 * what a right password leads to (a session, or the second factor's step),
 * and starting the session with its cookie.
 */

export function sessionResponse(
  member: StaffRecord,
  session: SessionRow,
  askForPasskey = false,
): SessionResponse {
  return {
    ...(askForPasskey ? { askForPasskey } : {}),
    member: toWireStaff(member),
    csrfToken: session.csrfToken,
    expiresAt: session.expiresAt.toISOString(),
    idleExpiresAt: idleExpiresAt(session).toISOString(),
    display: effectiveDisplay({
      chosenTimeZone: member.timeZone,
      browserTimeZone: session.browserTimeZone,
      colorScheme: member.colorScheme,
    }),
  };
}

/**
 * Whether the pages remind this member to register a passkey: an approver or
 * admin (they approve what moves money) without one, on a server that asks
 * (STAFF_PASSKEY_PROMPT), and not a shared demo member.
 */
export async function shouldAskForPasskey(
  options: Pick<AuthOptions, 'db' | 'passkeyPrompt' | 'demoAccounts'>,
  member: StaffRecord,
): Promise<boolean> {
  if (options.passkeyPrompt === false) return false;
  if (member.role !== 'approver' && member.role !== 'admin') return false;
  if (isDemoMember(member.email, options.demoAccounts)) return false;
  return !(await hasPasskey(options.db, member.id));
}

/**
 * The zone a browser reported at sign-in, kept on the session when the
 * server knows it; otherwise none (the member then sees UTC, said so on
 * /account): a browser with newer zone data must not be refused a sign-in.
 */
function browserZone(reported: string | undefined): string | null {
  return reported ? (knownTimeZone(reported) ?? null) : null;
}

/**
 * A new session for the member: the cookie, the audit row (`summary`), the
 * answer. `timeZone`: what the browser reported with the sign-in's last step.
 */
export async function startSession(
  c: Context<AppEnv>,
  options: AuthOptions,
  member: StaffRecord,
  summary: string,
  timeZone: string | undefined,
): Promise<SessionResponse> {
  const { token, row } = await createSession(options.db, member.id, options.clock.now(), {
    ip: clientIp(c, options.trustProxy),
    userAgent: c.req.header('user-agent') ?? null,
    browserTimeZone: browserZone(timeZone),
  });
  // `__Host-` over HTTPS (auth/session-cookie.ts).
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
  return sessionResponse(member, row, await shouldAskForPasskey(options, member));
}

/**
 * After the right password: a member with a factor is asked for a code, one
 * who must have a factor and has none sets one up, anyone else is signed
 * in. Neither step comes with a session, or anything a session can do.
 */
export async function afterPassword(
  c: Context<AppEnv>,
  options: AuthOptions,
  member: StaffRecord,
  timeZone: string | undefined,
): Promise<LoginAnswer> {
  const { db, clock } = options;
  if (!isDemoMember(member.email, options.demoAccounts)) {
    const now = clock.now();
    const policy = options.secondFactor ?? 'privileged';
    let answer: SecondFactorChallenge | undefined;
    const totp = isEnrolled(await getFactor(db, member.id));
    const passkeys = await listPasskeys(db, member.id);
    if (totp || passkeys.length > 0) {
      // A member with passkeys is offered them, each step with a challenge of its own.
      const passkey =
        passkeys.length > 0
          ? await assertionOptions(relyingParty(c, options.trustProxy), passkeys)
          : undefined;
      const { token, row } = await createChallenge(
        db,
        member.id,
        'verify',
        now,
        null,
        passkey?.challenge ?? null,
      );
      answer = {
        secondFactor: 'required',
        challengeId: token,
        expiresAt: row.expiresAt.toISOString(),
        ...(passkey ? { passkey, codes: totp } : {}),
      };
    } else if (mustHaveFactor(policy, member.role)) {
      const secret = newTotpSecret();
      const { token, row } = await createChallenge(db, member.id, 'enrol', now, secret);
      answer = {
        secondFactor: 'enrol',
        challengeId: token,
        expiresAt: row.expiresAt.toISOString(),
        enrolment: { secret, otpauthUri: otpauthUri(secret, member.email) },
      };
    }
    if (answer) {
      await audit(c, options, {
        action: 'auth.login',
        entityType: 'STAFF',
        entityId: member.id,
        summary:
          answer.secondFactor === 'required'
            ? 'Password accepted; the second factor is asked for'
            : 'Password accepted; a second factor must be set up before signing in',
        outcome: 'success',
        actor: { type: 'ANONYMOUS', id: null, name: member.email },
      });
      return answer;
    }
  }
  return startSession(c, options, member, `Signed in as ${member.role}`, timeZone);
}
