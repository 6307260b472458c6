import type { Context } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { AppEnv } from '../http/app-env.ts';
import { audit } from './audit.ts';
import { dummyPasswordHash, verifyPassword } from './password.ts';
import { describeWait, RefusalAudit, reserveLoginAttempt } from './rate-limit.ts';
import type { AuthOptions } from './session-auth.ts';
import { signInBudget } from './sign-in-budget.ts';
import { findStaffByEmail } from './staff.store.ts';

/**
 * Everything a sign-in does before its password's answer is known
 * (docs/security.md), in the order that keeps anonymous work bounded: the
 * budget admits it before any query (sign-in-budget.ts: 503 SIGN_IN_BUSY, or 429
 * for an address with too many in progress), the throttle records it as a
 * failure or refuses it before any scrypt (rate-limit.ts: 429
 * LOGIN_RATE_LIMITED), and the check waits its turn. The sign-in route
 * (session.routes.ts) takes it from there with the reserved attempt.
 */
export function signInCheck(options: AuthOptions) {
  const { db, clock } = options;
  const refusals = new RefusalAudit();

  /**
   * A sign-in refused before its password was checked: its row is written
   * only if the refusal is the first under `key` in a minute, with the count
   * of those since (rate-limit.ts, RefusalAudit).
   */
  async function refuseUnchecked(
    c: Context<AppEnv>,
    refusal: { key: string; email: string; reason: string; retryAfterMs: number; error: ApiError },
  ): Promise<ApiError> {
    const row = refusals.note(refusal.key, clock.now());
    if (row) {
      const more = row.unwritten
        ? `; ${row.unwritten} more refused since ${row.since?.toISOString()} have no row of their own`
        : '';
      await audit(c, options, {
        action: 'auth.login',
        summary: `Sign-in refused for ${refusal.email}: ${refusal.reason}${more}`,
        outcome: 'denied',
        actor: { type: 'ANONYMOUS', id: null, name: refusal.email },
      });
    } else {
      // Counted into the next row: the audit middleware must not write one either.
      c.set('audited', true);
    }
    c.header('Retry-After', String(Math.max(1, Math.ceil(refusal.retryAfterMs / 1000))));
    return refusal.error;
  }

  const rateLimited = (
    c: Context<AppEnv>,
    { email, ip, waitMs, why }: { email: string; ip: string; waitMs: number; why: string },
  ) =>
    refuseUnchecked(c, {
      key: `address ${ip}`,
      email,
      reason: `too many ${why}`,
      retryAfterMs: waitMs,
      error: new ApiError(
        429,
        ERROR_CODES.loginRateLimited,
        `Too many ${why}; try again in ${describeWait(waitMs)}`,
      ),
    });

  /** The reserved attempt (for `loginFailed` or `loginSucceeded`), the member, and the answer. */
  async function checkSignIn(
    c: Context<AppEnv>,
    { email, password, ip, now }: { email: string; password: string; ip: string; now: Date },
  ) {
    const admission = signInBudget.admit(ip);
    if (!admission.admitted) {
      if (admission.refusal === 'address')
        throw await rateLimited(c, {
          email,
          ip,
          waitMs: 1000,
          why: 'sign-ins at once from one address',
        });
      throw await refuseUnchecked(c, {
        key: 'busy',
        email,
        reason: 'the server was busy checking other sign-ins',
        retryAfterMs: 1000,
        error: new ApiError(
          503,
          ERROR_CODES.signInBusy,
          'Too many sign-ins are being checked right now',
        ),
      });
    }
    try {
      const reserved = await reserveLoginAttempt(db, email, ip, now);
      if ('blockedUntil' in reserved)
        throw await rateLimited(c, {
          email,
          ip,
          waitMs: reserved.blockedUntil.getTime() - now.getTime(),
          why: 'failed sign-in attempts',
        });
      const member = await findStaffByEmail(db, email);
      // Always run scrypt, so an unknown email takes as long as a wrong password.
      const matches = await admission.check(async () =>
        verifyPassword(password, member?.passwordHash ?? (await dummyPasswordHash())),
      );
      return { reservation: reserved.attempt, member, matches };
    } finally {
      admission.leave();
    }
  }

  return checkSignIn;
}
