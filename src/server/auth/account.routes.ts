import { eq } from 'drizzle-orm';
import { Hono, type Context } from 'hono';
import {
  type AccountPasskeys,
  type AccountSecondFactor,
  type EnrolmentStarted,
  type PasswordChanged,
  type RecoveryCodesResponse,
} from '#contract/auth.ts';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import {
  accountPasskeys,
  accountSecondFactor,
  changePassword,
  confirmEnrolment,
  registerPasskey,
  removePasskey as removePasskeyEndpoint,
  startPasskeyRegistration,
  replaceRecoveryCodes as replaceRecoveryCodesEndpoint,
  startEnrolment,
  updateDisplaySettings,
} from '#contract/endpoints/account.ts';
import { effectiveDisplay, type DisplaySettings } from '#contract/display.ts';
import { sessions, staff } from '../db/schema/console.ts';
import type { AppEnv } from '../http/app-env.ts';
import { mount } from '../http/mount.ts';
import { audit } from './audit.ts';
import { replacePassword } from './credentials.ts';
import { registrationOptions, relyingParty, verifyRegistration } from './passkeys.ts';
import {
  addPasskey,
  listPasskeys,
  passkeyKind,
  removePasskey,
  toWirePasskey,
} from './passkeys.store.ts';
import { verifyPassword } from './password.ts';
import { refuseTooMany, stepEnded } from './second-factor.routes.ts';
import {
  isDemoMember,
  isTotpCode,
  matchTotp,
  mustHaveFactor,
  newTotpSecret,
  otpauthUri,
} from './second-factor.ts';
import {
  claimChallenge,
  clearMemberFailures,
  createChallenge,
  endChallenges,
  getFactor,
  isEnrolled,
  recoveryCodesLeft,
  replaceRecoveryCodes,
  revokeOtherSessions,
  setFactor,
  tryChallenge,
  tryMember,
} from './second-factor.store.ts';
import { endSessionStreams, unauthorized, type AuthOptions } from './session-auth.ts';
import { shouldAskForPasskey } from './sign-in.ts';
import type { StaffRecord } from './staff.store.ts';

/**
 * /api/console/account/*: the signed-in member's own second factor,
 * password and display settings, for every role. Each change of a
 * credential asks for the current password again (a session left open on a
 * desk is not enough to take the account over), counted against the
 * member's own throttle before it is checked. A new password or factor ends
 * the member's other sessions. Display settings (time zone, colour scheme)
 * ask for nothing more, are audited like the rest, and apply to every
 * session of the member from its next request.
 */

const zoneWords = (zone: string | null) => zone ?? "their browser's zone";

/** What changed, for the audit row: `Time zone America/Los_Angeles (was their browser's zone)`. */
function displayChange(
  before: Pick<StaffRecord, 'timeZone' | 'colorScheme'>,
  after: Pick<StaffRecord, 'timeZone' | 'colorScheme'>,
): string {
  const changes: string[] = [];
  if (before.timeZone !== after.timeZone)
    changes.push(`time zone ${zoneWords(after.timeZone)} (was ${zoneWords(before.timeZone)})`);
  if (before.colorScheme !== after.colorScheme)
    changes.push(`colour scheme ${after.colorScheme} (was ${before.colorScheme})`);
  return changes.length > 0
    ? `Changed their display settings: ${changes.join('; ')}`
    : 'Saved their display settings unchanged';
}

function refuseDemo(): ApiError {
  return new ApiError(
    403,
    ERROR_CODES.demoMemberFixed,
    "The sandbox's demo members are shared by everyone who opens it: their password and second factor cannot be changed",
  );
}

export function accountRoutes(options: AuthOptions) {
  const { db, clock } = options;
  const policy = options.secondFactor ?? 'privileged';

  function me(c: Context<AppEnv>): { member: StaffRecord; sessionId: string } {
    const member = c.get('staff');
    const session = c.get('session');
    if (!member || !session) throw unauthorized();
    return { member, sessionId: session.id };
  }

  /** The current password again, under the member's throttle; a wrong one is audited and a 400 naming `field`. */
  async function confirmPassword(
    c: Context<AppEnv>,
    member: StaffRecord,
    password: string,
    field: string,
    action: string,
  ): Promise<void> {
    const now = clock.now();
    const allowed = await tryMember(db, member.id, now);
    if (!allowed.ok) {
      await audit(c, options, {
        action,
        entityType: 'STAFF',
        entityId: member.id,
        summary: 'Refused: too many wrong passwords or codes for this account',
        outcome: 'denied',
      });
      throw refuseTooMany(allowed, now);
    }
    if (!(await verifyPassword(password, member.passwordHash))) {
      await audit(c, options, {
        action,
        entityType: 'STAFF',
        entityId: member.id,
        summary: 'Refused: the current password was not correct',
        outcome: 'failed',
      });
      throw new ApiError(400, ERROR_CODES.wrongPassword, 'Your current password is not correct', [
        { field, message: 'is not correct' },
      ]);
    }
    await clearMemberFailures(db, member.id);
  }

  const app = new Hono<AppEnv>();
  mount(app, CONSOLE_API_PREFIX, accountSecondFactor, async (_input, c) => {
    const { member } = me(c);
    const factor = await getFactor(db, member.id);
    const enrolled = isEnrolled(factor);
    const demoMember = isDemoMember(member.email, options.demoAccounts);
    const body: AccountSecondFactor = {
      enrolled,
      enrolledAt: enrolled ? (factor.enrolledAt?.toISOString() ?? null) : null,
      recoveryCodesLeft: enrolled ? await recoveryCodesLeft(db, member.id) : 0,
      required: !demoMember && mustHaveFactor(policy, member.role),
      demoMember,
    };
    return body;
  });
  mount(app, CONSOLE_API_PREFIX, startEnrolment, async ({ body: { password } }, c) => {
    const { member } = me(c);
    if (isDemoMember(member.email, options.demoAccounts)) throw refuseDemo();
    await confirmPassword(c, member, password, 'password', 'account.second_factor.start');
    const secret = newTotpSecret();
    const { token, row } = await createChallenge(db, member.id, 'reenrol', clock.now(), secret);
    await audit(c, options, {
      action: 'account.second_factor.start',
      entityType: 'STAFF',
      entityId: member.id,
      summary: 'Began setting up a new second factor',
      outcome: 'success',
    });
    const body: EnrolmentStarted = {
      enrolmentId: token,
      expiresAt: row.expiresAt.toISOString(),
      secret,
      otpauthUri: otpauthUri(secret, member.email),
    };
    return body;
  });
  mount(app, CONSOLE_API_PREFIX, confirmEnrolment, async ({ body: { enrolmentId, code } }, c) => {
    const { member, sessionId } = me(c);
    const now = clock.now();
    const tried = await tryChallenge(db, enrolmentId, ['reenrol'], now, member.id);
    // Not a 401: the member's session is fine, only this enrolment has ended.
    if (!tried.ok)
      throw stepEnded('This set-up has ended (five minutes, five codes); start again', 400);
    const secret = tried.challenge.pendingSecret;
    const step = secret && isTotpCode(code) ? matchTotp(secret, code, now) : null;
    if (!secret || step === null) {
      await audit(c, options, {
        action: 'account.second_factor.enrol',
        entityType: 'STAFF',
        entityId: member.id,
        summary: 'Refused: the first code did not match the new key',
        outcome: 'failed',
      });
      throw new ApiError(
        400,
        ERROR_CODES.secondFactorInvalid,
        "The code does not match the new key: check the entry in your authenticator app and your phone's clock",
        [{ field: 'code', message: 'does not match the new key' }],
      );
    }
    if (!(await claimChallenge(db, tried.challenge.id, now)))
      throw stepEnded('This set-up has ended; start again', 400);
    await setFactor(db, member.id, secret, step, now, { onlyIfNone: false });
    const recoveryCodes = await replaceRecoveryCodes(db, member.id, now);
    await endChallenges(db, member.id, now);
    const ended = await revokeOtherSessions(db, member.id, sessionId, now);
    endSessionStreams(options, ended);
    const otherSessionsEnded = ended.length;
    await audit(c, options, {
      action: 'account.second_factor.enrol',
      entityType: 'STAFF',
      entityId: member.id,
      summary: `Set up a new second factor; ${recoveryCodes.length} recovery codes issued; ${otherSessionsEnded} other session(s) ended`,
      outcome: 'success',
    });
    const body: RecoveryCodesResponse = { recoveryCodes, otherSessionsEnded };
    return body;
  });
  mount(
    app,
    CONSOLE_API_PREFIX,
    replaceRecoveryCodesEndpoint,
    async ({ body: { password } }, c) => {
      const { member } = me(c);
      if (!isEnrolled(await getFactor(db, member.id)))
        throw new ApiError(
          409,
          ERROR_CODES.conflict,
          'Set up a second factor first: recovery codes come with it',
        );
      await confirmPassword(c, member, password, 'password', 'account.recovery_codes');
      const recoveryCodes = await replaceRecoveryCodes(db, member.id, clock.now());
      await audit(c, options, {
        action: 'account.recovery_codes',
        entityType: 'STAFF',
        entityId: member.id,
        summary: `Replaced their recovery codes (${recoveryCodes.length} new; the earlier ones no longer work)`,
        outcome: 'success',
      });
      const body: RecoveryCodesResponse = { recoveryCodes };
      return body;
    },
  );
  mount(app, CONSOLE_API_PREFIX, accountPasskeys, async (_input, c) => {
    const { member } = me(c);
    const body: AccountPasskeys = {
      passkeys: (await listPasskeys(db, member.id)).map(toWirePasskey),
      asked: await shouldAskForPasskey({ ...options, db }, member),
      demoMember: isDemoMember(member.email, options.demoAccounts),
    };
    return body;
  });
  mount(app, CONSOLE_API_PREFIX, startPasskeyRegistration, async ({ body: { password } }, c) => {
    const { member } = me(c);
    // A shared demo member with a passkey would ask every other visitor for it.
    if (isDemoMember(member.email, options.demoAccounts)) throw refuseDemo();
    await confirmPassword(c, member, password, 'password', 'account.passkey.start');
    const now = clock.now();
    const rp = relyingParty(c, options.trustProxy);
    const passkeyOptions = await registrationOptions(rp, member, await listPasskeys(db, member.id));
    const { token, row } = await createChallenge(
      db,
      member.id,
      'passkey',
      now,
      null,
      passkeyOptions.challenge,
    );
    await audit(c, options, {
      action: 'account.passkey.start',
      entityType: 'STAFF',
      entityId: member.id,
      summary: `Began registering a passkey for ${rp.origin}`,
      outcome: 'success',
    });
    return {
      registrationId: token,
      expiresAt: row.expiresAt.toISOString(),
      options: passkeyOptions,
    };
  });
  mount(
    app,
    CONSOLE_API_PREFIX,
    registerPasskey,
    async ({ body: { registrationId, name, credential } }, c) => {
      const { member } = me(c);
      const now = clock.now();
      const tried = await tryChallenge(db, registrationId, ['passkey'], now, member.id);
      if (!tried.ok || !tried.challenge.webauthnChallenge)
        throw stepEnded('This registration has ended (five minutes); start again', 400);
      const verdict = await verifyRegistration(
        relyingParty(c, options.trustProxy),
        credential,
        tried.challenge.webauthnChallenge,
      );
      if (!verdict.ok) {
        await audit(c, options, {
          action: 'account.passkey.register',
          entityType: 'STAFF',
          entityId: member.id,
          summary: `Refused a passkey: ${verdict.reason}`,
          outcome: 'failed',
        });
        throw new ApiError(
          400,
          ERROR_CODES.passkeyInvalid,
          'The new passkey could not be verified; start again',
          [{ field: 'credential', message: 'could not be verified' }],
        );
      }
      if (!(await claimChallenge(db, tried.challenge.id, now)))
        throw stepEnded('This registration has ended; start again', 400);
      const added = await addPasskey(db, member.id, name, verdict.value, now);
      if (!added)
        throw new ApiError(409, ERROR_CODES.conflict, 'This passkey is registered already', [
          { field: 'credential', message: 'is registered already' },
        ]);
      await audit(c, options, {
        action: 'account.passkey.register',
        entityType: 'STAFF',
        entityId: member.id,
        summary: `Registered a ${passkeyKind(added)} “${added.name}”`,
        outcome: 'success',
      });
      return toWirePasskey(added);
    },
  );
  mount(
    app,
    CONSOLE_API_PREFIX,
    removePasskeyEndpoint,
    async ({ params: { passkeyId }, body: { password } }, c) => {
      const { member } = me(c);
      await confirmPassword(c, member, password, 'password', 'account.passkey.remove');
      const removed = await removePasskey(db, member.id, passkeyId);
      if (!removed)
        throw new ApiError(404, ERROR_CODES.notFound, 'You have no passkey with that id');
      await audit(c, options, {
        action: 'account.passkey.remove',
        entityType: 'STAFF',
        entityId: member.id,
        summary: `Removed their ${passkeyKind(removed)} “${removed.name}”`,
        outcome: 'success',
      });
      return toWirePasskey(removed);
    },
  );
  mount(
    app,
    CONSOLE_API_PREFIX,
    changePassword,
    async ({ body: { currentPassword, newPassword } }, c) => {
      const { member, sessionId } = me(c);
      if (isDemoMember(member.email, options.demoAccounts)) throw refuseDemo();
      if (newPassword === currentPassword)
        throw new ApiError(
          400,
          ERROR_CODES.validation,
          'newPassword must differ from the current password',
          [{ field: 'newPassword', message: 'must differ from the current password' }],
        );
      await confirmPassword(c, member, currentPassword, 'currentPassword', 'account.password');
      const now = clock.now();
      const ended = await replacePassword(db, member.id, newPassword, now, sessionId);
      endSessionStreams(options, ended);
      const otherSessionsEnded = ended.length;
      await audit(c, options, {
        action: 'account.password',
        entityType: 'STAFF',
        entityId: member.id,
        summary: `Changed their password; ${otherSessionsEnded} other session(s) ended`,
        outcome: 'success',
      });
      const body: PasswordChanged = { otherSessionsEnded };
      return body;
    },
  );
  mount(app, CONSOLE_API_PREFIX, updateDisplaySettings, async ({ body: request }, c) => {
    const { member, sessionId } = me(c);
    const next = {
      timeZone: request.timeZone === undefined ? member.timeZone : request.timeZone,
      colorScheme: request.colorScheme ?? member.colorScheme,
    };
    await db.update(staff).set(next).where(eq(staff.id, member.id));
    await audit(c, options, {
      action: 'account.display',
      entityType: 'STAFF',
      entityId: member.id,
      summary: displayChange(member, next),
      outcome: 'success',
    });
    // The default this session's browser reported at sign-in.
    const [session] = await db
      .select({ browserTimeZone: sessions.browserTimeZone })
      .from(sessions)
      .where(eq(sessions.id, sessionId));
    const body: DisplaySettings = effectiveDisplay({
      chosenTimeZone: next.timeZone,
      browserTimeZone: session?.browserTimeZone ?? null,
      colorScheme: next.colorScheme,
    });
    return body;
  });
  return app;
}
