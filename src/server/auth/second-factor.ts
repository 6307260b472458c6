import { createHash, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import {
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_LENGTH,
  TOTP_DIGITS,
  type StaffRole,
} from '#contract/auth.ts';
import { DEMO_STAFF } from './staff-demo.ts';

/**
 * The staff second factor: TOTP (RFC 6238: SHA-1, 6 digits, 30-second
 * steps, what every authenticator app takes from an otpauth:// URI) through
 * `otpauth`, and single-use recovery codes. Pure functions: the stores and
 * routes beside this file keep the state (second-factor.store.ts) and the
 * rules of a try (second-factor.routes.ts).
 *
 * Why otpauth and not otplib: one small module with one dependency
 * (@noble/hashes), the time passed in by the caller (the server's one clock,
 * clock.ts, so tests move it by hand), and a `validate` that answers the
 * offset of the matching step — what the replay rule needs — where otplib
 * 13 spreads the same over a plugin per runtime, crypto and encoding.
 */

/** STAFF_SECOND_FACTOR: who must have a factor to sign in. */
export const SECOND_FACTOR_POLICIES = ['privileged', 'all', 'optional'] as const;
export type SecondFactorPolicy = (typeof SECOND_FACTOR_POLICIES)[number];

/**
 * APPROVAL_SIGNING: which staff decisions are signed with a passkey over the
 * approval card (capabilities/approvals/signing/). `registered`: a member
 * with at least one passkey signs every decision; `required`: every one.
 */
export const APPROVAL_SIGNING_MODES = ['registered', 'required'] as const;
export type ApprovalSigning = (typeof APPROVAL_SIGNING_MODES)[number];

const ISSUER = 'Custody Console';
const PERIOD_SECONDS = 30;
/** One step either side: a phone's clock 30 s off, or a code typed as it changed. */
const WINDOW = 1;
const SECRET_BYTES = 20;
export const RECOVERY_CODE_COUNT = 10;

/** Whether this member may not sign in without a factor. */
export function mustHaveFactor(policy: SecondFactorPolicy, role: StaffRole): boolean {
  if (policy === 'all') return true;
  if (policy === 'optional') return false;
  return role === 'approver' || role === 'admin';
}

/**
 * The sandbox's demo members sign in with passwords printed on the sign-in
 * page: a factor added to them would protect nothing and would lock every
 * other visitor out (browser tests sign in as them many times a minute, which
 * the replay rule would refuse). They get no factor and no password change.
 */
export function isDemoMember(email: string, demoAccounts: boolean): boolean {
  return demoAccounts && DEMO_STAFF.some((demo) => demo.email === email);
}

export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

function totp(secret: string, label = ''): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** What an authenticator app scans: `otpauth://totp/Custody%20Console:email?secret=…`. */
export function otpauthUri(secret: string, email: string): string {
  return totp(secret, email).toString();
}

/** The TOTP time step a code of this moment belongs to. */
export function totpStep(at: Date): number {
  return Math.floor(at.getTime() / 1000 / PERIOD_SECONDS);
}

/**
 * The time step whose code `code` is, within one step of `at`; null when it
 * is none of them. The caller still refuses a step not newer than the last
 * one it accepted.
 */
export function matchTotp(secret: string, code: string, at: Date): number | null {
  const delta = totp(secret).validate({ token: code, timestamp: at.getTime(), window: WINDOW });
  return delta === null ? null : totpStep(at) + delta;
}

/** The code of `at` (tests and the CLI's own checks; the server never sends one). */
export function totpCode(secret: string, at: Date): string {
  return totp(secret).generate({ timestamp: at.getTime() });
}

/** Ten characters of Crockford's base32: 50 bits, as `xxxxx-xxxxx`. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    let code = '';
    for (let i = 0; i < RECOVERY_CODE_LENGTH; i += 1)
      code += RECOVERY_CODE_ALPHABET[randomInt(RECOVERY_CODE_ALPHABET.length)];
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** Codes are random, not chosen, so a fast hash suffices (like session tokens); the hyphen is not part of it. */
export function hashRecoveryCode(code: string): string {
  return createHash('sha256').update(code.replace(/[\s-]/g, '').toLowerCase()).digest('hex');
}

/** A normalized code (SecondFactorCode): 6 digits, or a recovery code. */
export function isTotpCode(code: string): boolean {
  return code.length === TOTP_DIGITS;
}
