import { Hono, type Context } from 'hono';
import type { SecondFactorSessionResponse } from '#contract/auth.ts';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { signInPasskey, signInSecondFactor } from '#contract/endpoints/session.ts';
import type { AppEnv } from '../http/app-env.ts';
import { mount } from '../http/mount.ts';
import { audit } from './audit.ts';
import { assertSameOrigin } from './csrf.ts';
import { relyingParty, verifyAssertion } from './passkeys.ts';
import { passkeyKind } from './passkeys.store.ts';
import { describeWait } from './rate-limit.ts';
import { isTotpCode, matchTotp } from './second-factor.ts';
import {
  acceptStep,
  CHALLENGE_ATTEMPTS,
  claimChallenge,
  clearMemberFailures,
  getFactor,
  isEnrolled,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  setFactor,
  tryChallenge,
  tryMember,
  useRecoveryCode,
  type Challenge,
  type MemberTry,
} from './second-factor.store.ts';
import type { AuthOptions } from './session-auth.ts';
import { startSession } from './sign-in.ts';
import { getStaff, type StaffRecord } from './staff.store.ts';

/**
 * POST /auth/login/second-factor: the step after the password. The body
 * names the step (`challengeId`, from POST /auth/login) and a code: one of
 * the member's authenticator, a recovery code, or — when the step is an
 * enrolment — the first code of the new secret. Only then is there a session.
 * POST /auth/login/passkey completes the same step with one of the member's
 * passkeys instead: an assertion over the challenge the step carries.
 *
 * Limits, each counted before the code is checked: five codes per step
 * (then the password again), and per member five wrong codes an hour
 * before waits of 1 s, 2 s, 4 s… up to 15 minutes (someone holding the
 * password can open any number of steps). A code's time step is accepted
 * once: a code is refused unless its step is newer than the last accepted.
 */

const STEP_ENDED = 'This sign-in step has ended; sign in again with your password';

export function stepEnded(message = STEP_ENDED, status = 401): ApiError {
  return new ApiError(status, ERROR_CODES.secondFactorStepExpired, message);
}

/** 429 with Retry-After for a member whose wrong codes (or passwords) earned a wait. */
export function refuseTooMany(blocked: Exclude<MemberTry, { ok: true }>, now: Date): ApiError {
  const wait = Math.max(0, blocked.retryAt.getTime() - now.getTime());
  const error = new ApiError(
    429,
    ERROR_CODES.secondFactorRateLimited,
    `Too many wrong codes or passwords for this account; try again in ${describeWait(wait)}`,
  );
  error.headers['Retry-After'] = String(Math.max(1, Math.ceil(wait / 1000)));
  return error;
}

function triesLeft(challenge: Challenge): string {
  const left = CHALLENGE_ATTEMPTS - challenge.attempts;
  return left > 0
    ? `${left} ${left === 1 ? 'try' : 'tries'} left`
    : 'sign in again with your password';
}

/** A code sent for a sign-in's second step, with what it is checked against. */
interface CodeAttempt {
  c: Context<AppEnv>;
  member: StaffRecord;
  challenge: Challenge;
  code: string;
  timeZone: string | undefined;
}

export function secondFactorRoutes(options: AuthOptions) {
  const { db, clock, trustProxy } = options;

  /** A wrong (or reused) code or passkey: audited under the member, then refused. */
  async function refuse(
    c: Context<AppEnv>,
    member: StaffRecord,
    code: 'secondFactorInvalid' | 'secondFactorReplayed' | 'passkeyInvalid',
    summary: string,
    message: string,
    field = 'code',
  ): Promise<never> {
    await audit(c, options, {
      action: 'auth.second_factor',
      entityType: 'STAFF',
      entityId: member.id,
      summary,
      outcome: 'failed',
      actor: { type: 'ANONYMOUS', id: null, name: member.email },
    });
    throw new ApiError(401, ERROR_CODES[code], message, [{ field, message }]);
  }

  /** Counts a try against the member's throttle before it is checked; a member waiting is refused. */
  async function throttle(c: Context<AppEnv>, member: StaffRecord, now: Date): Promise<void> {
    const allowed = await tryMember(db, member.id, now);
    if (allowed.ok) return;
    await audit(c, options, {
      action: 'auth.second_factor',
      entityType: 'STAFF',
      entityId: member.id,
      summary: `Second factor refused for ${member.email}: too many wrong codes`,
      outcome: 'denied',
      actor: { type: 'ANONYMOUS', id: null, name: member.email },
    });
    throw refuseTooMany(allowed, now);
  }

  /** The step `challengeId` names, counted as one try, and its member. */
  async function openStep(
    challengeId: string,
    kinds: readonly ('verify' | 'enrol')[],
    now: Date,
  ): Promise<{ challenge: Challenge; member: StaffRecord }> {
    const tried = await tryChallenge(db, challengeId, kinds, now);
    if (!tried.ok)
      throw stepEnded(
        tried.reason === 'spent'
          ? 'Too many wrong codes for this sign-in; sign in again with your password'
          : STEP_ENDED,
      );
    const member = await getStaff(db, tried.challenge.staffId);
    if (!member || member.disabled) throw stepEnded();
    return { challenge: tried.challenge, member };
  }

  /** A member proving a factor they have: an authenticator code or a recovery code. */
  async function verify(attempt: CodeAttempt): Promise<SecondFactorSessionResponse> {
    const { c, member, challenge, code, timeZone } = attempt;
    const now = clock.now();
    const factor = await getFactor(db, member.id);
    if (!isEnrolled(factor)) {
      // Only passkeys: there is no code to check (not counted as a wrong one).
      if (challenge.webauthnChallenge) {
        const message = 'This account has no authenticator app; use your passkey';
        throw new ApiError(401, ERROR_CODES.secondFactorInvalid, message, [
          { field: 'code', message },
        ]);
      }
      // Reset since the password was checked.
      throw stepEnded();
    }
    await throttle(c, member, now);
    let via: string;
    if (isTotpCode(code)) {
      const step = matchTotp(factor.secret, code, now);
      if (step === null)
        return refuse(
          c,
          member,
          'secondFactorInvalid',
          `Wrong authenticator code for ${member.email} (${challenge.attempts} of ${CHALLENGE_ATTEMPTS} for this sign-in)`,
          `The code is not correct; ${triesLeft(challenge)}`,
        );
      if (!(await acceptStep(db, member.id, factor.secret, step)))
        return refuse(
          c,
          member,
          'secondFactorReplayed',
          `Authenticator code refused for ${member.email}: its time step was already used`,
          'This code was already used; enter the next code your authenticator app shows',
        );
      via = 'an authenticator code';
    } else {
      if (!(await useRecoveryCode(db, member.id, code, now)))
        return refuse(
          c,
          member,
          'secondFactorInvalid',
          `Wrong or used recovery code for ${member.email} (${challenge.attempts} of ${CHALLENGE_ATTEMPTS} for this sign-in)`,
          `The code is not correct, or that recovery code was used already; ${triesLeft(challenge)}`,
        );
      via = `a recovery code (${await recoveryCodesLeft(db, member.id)} left)`;
    }
    if (!(await claimChallenge(db, challenge.id, now))) throw stepEnded();
    await clearMemberFailures(db, member.id);
    return startSession(c, options, member, `Signed in as ${member.role} with ${via}`, timeZone);
  }

  /** A member setting up a factor at sign-in: the first code from the new key. */
  async function enrol(attempt: CodeAttempt): Promise<SecondFactorSessionResponse> {
    const { c, member, challenge, code, timeZone } = attempt;
    const now = clock.now();
    const secret = challenge.pendingSecret;
    if (!secret) throw stepEnded();
    const step = isTotpCode(code) ? matchTotp(secret, code, now) : null;
    if (step === null)
      return refuse(
        c,
        member,
        'secondFactorInvalid',
        `Wrong first code while setting up a second factor for ${member.email}`,
        `The code does not match the new key: check the entry in your authenticator app and your phone's clock; ${triesLeft(challenge)}`,
      );
    if (!(await claimChallenge(db, challenge.id, now))) throw stepEnded();
    if (!(await setFactor(db, member.id, secret, step, now, { onlyIfNone: true })))
      throw stepEnded('A second factor was set up for this account meanwhile; sign in again');
    const recoveryCodes = await replaceRecoveryCodes(db, member.id, now);
    await audit(c, options, {
      action: 'auth.second_factor.enrol',
      entityType: 'STAFF',
      entityId: member.id,
      summary: `Set up a second factor at sign-in; ${recoveryCodes.length} recovery codes issued`,
      outcome: 'success',
      actor: { type: 'STAFF', id: member.id, name: member.name },
    });
    const session = await startSession(
      c,
      options,
      member,
      `Signed in as ${member.role} with a new second factor`,
      timeZone,
    );
    return { ...session, recoveryCodes };
  }

  const app = new Hono<AppEnv>();
  const sameOrigin = { guard: (c: Context<AppEnv>) => assertSameOrigin(c, trustProxy) };
  mount(
    app,
    '',
    signInSecondFactor,
    async ({ body: { challengeId, code, timeZone } }, c) => {
      const { challenge, member } = await openStep(challengeId, ['verify', 'enrol'], clock.now());
      const attempt: CodeAttempt = { c, member, challenge, code, timeZone };
      return challenge.kind === 'enrol' ? await enrol(attempt) : await verify(attempt);
    },
    sameOrigin,
  );
  mount(
    app,
    '',
    signInPasskey,
    async ({ body: { challengeId, credential, timeZone } }, c) => {
      const now = clock.now();
      const { challenge, member } = await openStep(challengeId, ['verify'], now);
      // The step offered no passkey (the member had none when the password was checked).
      if (!challenge.webauthnChallenge)
        throw stepEnded('This sign-in did not offer a passkey; sign in again with your password');
      await throttle(c, member, now);
      const verdict = await verifyAssertion(
        db,
        relyingParty(c, trustProxy),
        member.id,
        credential,
        challenge.webauthnChallenge,
        now,
      );
      if (!verdict.ok)
        return refuse(
          c,
          member,
          'passkeyInvalid',
          `Passkey refused for ${member.email}: ${verdict.reason} (${challenge.attempts} of ${CHALLENGE_ATTEMPTS} for this sign-in)`,
          `Your passkey was not accepted; ${triesLeft(challenge)}`,
          'credential',
        );
      if (!(await claimChallenge(db, challenge.id, now))) throw stepEnded();
      await clearMemberFailures(db, member.id);
      const passkey = verdict.value;
      return startSession(
        c,
        options,
        member,
        `Signed in as ${member.role} with their ${passkeyKind(passkey)} “${passkey.name}”`,
        timeZone,
      );
    },
    sameOrigin,
  );
  return app;
}
