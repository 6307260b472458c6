import * as z from 'zod/mini';
import { listEnvelope } from './common.ts';
import { displayTextProblem } from './display-text.ts';
import { BrowserTimeZone } from './display.ts';

import { AuditOutcome, SessionResponse, StaffMember, StaffRole } from './staff-record.ts';

export {
  AUDIT_OUTCOMES,
  AuditFilters,
  CSRF_HEADER,
  DemoAccount,
  DemoAccountList,
  roleAllows,
  SessionResponse,
  STAFF_ROLES,
  StaffFilters,
  StaffListResponse,
  StaffMember,
  StaffRole,
  type Permission,
} from './staff-record.ts';

/**
 * The console's own wire format for staff sign-in, staff management and the
 * audit log. Not part of the custody API: these live under /auth and
 * /api/console on the console server.
 */

/** An email address, trimmed and in lower case before it is checked. */
const emailAddress = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.regex(z.regexes.email, 'email must be an email address'));

export const LoginRequest = z.strictObject({
  email: emailAddress,
  password: z
    .string()
    .check(z.minLength(1, 'password is required'), z.maxLength(1024, 'password is too long')),
  /** The browser's time zone, kept on the session as the member's default (contract/display.ts). */
  timeZone: z.optional(BrowserTimeZone),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

/** Staff passwords: long enough to resist guessing, no composition rules (NIST 800-63B). */
function staffPassword(field: string) {
  return z
    .string()
    .check(
      z.minLength(12, `${field} must be at least 12 characters`),
      z.maxLength(1024, `${field} must be at most 1024 characters`),
    );
}
const StaffPassword = staffPassword('password');

/** A member's name, as approval screens and the audit log show it (display-text.ts). */
const staffName = z.string().check(
  z.trim(),
  z.minLength(1, 'name is required'),
  z.maxLength(120, 'name must be at most 120 characters'),
  z.superRefine((value, ctx) => {
    const problem = displayTextProblem('name', value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

/**
 * A member an admin adds: no password. The answer carries a one-time set-up
 * code (`StaffSetupLink`) with which the member chooses their own password;
 * the admin never knows one that signs in.
 */
export const StaffCreateRequest = z.strictObject({
  email: emailAddress,
  name: staffName,
  role: StaffRole,
  subOrgIds: z.optional(z.nullable(z.array(z.string().check(z.minLength(1))))),
});
export type StaffCreateRequest = z.infer<typeof StaffCreateRequest>;

/** The CLI's create: the first admins of a new console, with the password read from standard input. */
export const CliStaffCreateRequest = z.extend(StaffCreateRequest, { password: StaffPassword });

/**
 * The set-up code of a new member, answered once (stored as SHA-256): the
 * member opens `/setup#<token>` and chooses a password. It works once, until
 * `expiresAt`, and only once the member exists (a proposal approved).
 */
export const StaffSetupLink = z.looseObject({
  token: z.string(),
  /** Null while the member's creation awaits another admin: the clock starts at approval. */
  expiresAt: z.nullable(z.string()),
});
export type StaffSetupLink = z.infer<typeof StaffSetupLink>;

/** POST /auth/setup: the set-up code and the member's own password. */
export const StaffSetupRequest = z.strictObject({
  token: z
    .string()
    .check(z.minLength(1, 'token is required'), z.maxLength(200, 'token is too long')),
  password: StaffPassword,
});
export type StaffSetupRequest = z.infer<typeof StaffSetupRequest>;

export const StaffSetupDone = z.looseObject({ email: z.string() });
export type StaffSetupDone = z.infer<typeof StaffSetupDone>;

export const StaffUpdateRequest = z.strictObject({
  name: z.optional(staffName),
  role: z.optional(StaffRole),
  subOrgIds: z.optional(z.nullable(z.array(z.string().check(z.minLength(1))))),
  disabled: z.optional(z.boolean()),
});
export type StaffUpdateRequest = z.infer<typeof StaffUpdateRequest>;

/**
 * A staff change that grants approve or admin rights, or a wider scope, or
 * resets another member's second factor: proposed by one admin, applied when
 * another approves (not the proposer, not the member it changes, not an
 * account linked to the proposer's by who created whom).
 */
export const STAFF_PROPOSAL_KINDS = ['create', 'update', 'reset_factor'] as const;
export const STAFF_PROPOSAL_STATUSES = ['PENDING', 'APPROVED', 'DECLINED'] as const;
const MemberRef = z.looseObject({ id: z.string(), name: z.string() });

export const StaffProposal = z.looseObject({
  id: z.string(),
  kind: z.enum(STAFF_PROPOSAL_KINDS),
  /** The member changed; null for a creation (the member exists once approved). */
  staffId: z.nullable(z.string()),
  /** Who it is about: the member's (or the new member's) name and email. */
  subject: z.looseObject({ name: z.string(), email: z.string() }),
  /** The change as it will be applied: for a creation, the new member's role and scope. */
  change: z.looseObject({
    role: z.optional(StaffRole),
    subOrgIds: z.optional(z.nullable(z.array(z.string()))),
    name: z.optional(z.string()),
    disabled: z.optional(z.boolean()),
  }),
  /** One line, in words: what approving it does. */
  summary: z.string(),
  proposedBy: MemberRef,
  proposedAt: z.string(),
  status: z.enum(STAFF_PROPOSAL_STATUSES),
  decidedBy: z.nullable(MemberRef),
  decidedAt: z.nullable(z.string()),
});
export type StaffProposal = z.infer<typeof StaffProposal>;
export const StaffProposalList = listEnvelope(StaffProposal);
export type StaffProposalList = z.infer<typeof StaffProposalList>;

/** What a create, a change or a reset did: applied now, or proposed to another admin. */
export const StaffChangeAnswer = z.looseObject({
  outcome: z.enum(['applied', 'proposed']),
  member: z.nullable(StaffMember),
  proposal: z.nullable(StaffProposal),
  /** A new member's set-up code, shown this once. */
  setup: z.optional(StaffSetupLink),
});
export type StaffChangeAnswer = z.infer<typeof StaffChangeAnswer>;

export const StaffProposalDecisionRequest = z.strictObject({
  action: z.enum(['approve', 'decline']),
});
export type StaffProposalDecisionRequest = z.infer<typeof StaffProposalDecisionRequest>;

/**
 * The second factor (TOTP, RFC 6238) and its recovery codes. After the right
 * password, a member who has a factor, or must enrol one (approvers and
 * admins by default: the server's STAFF_SECOND_FACTOR), gets a sign-in step
 * instead of a session: a short-lived, single-use challenge the code
 * completes at POST /auth/login/second-factor.
 */
export const SECOND_FACTOR_STEPS = ['required', 'enrol'] as const;

/** What to add to an authenticator app: the secret as text and as an otpauth:// URI (a QR code of it). */
export const SecondFactorEnrolment = z.looseObject({
  /** Base32, as authenticator apps take it typed in. Shown once: never answered again. */
  secret: z.string(),
  otpauthUri: z.string(),
});
export type SecondFactorEnrolment = z.infer<typeof SecondFactorEnrolment>;

/** POST /auth/login's answer when the password was right but a session needs a second step. */
export const SecondFactorChallenge = z.looseObject({
  secondFactor: z.enum(SECOND_FACTOR_STEPS),
  /** The step's single-use id: sent back with the code, good for `expiresAt` and five wrong codes. */
  challengeId: z.string(),
  expiresAt: z.string(),
  /** Only for `enrol`: the new factor to add and confirm with its first code. */
  enrolment: z.optional(SecondFactorEnrolment),
  /** Only for `required`, when the member has passkeys: what the browser asks one to sign. */
  passkey: z.optional(z.lazy(() => PasskeyRequestOptions)),
  /** Only for `required`: false when the member has no authenticator app, only passkeys. */
  codes: z.optional(z.boolean()),
});
export type SecondFactorChallenge = z.infer<typeof SecondFactorChallenge>;

/** POST /auth/login answers a session, or the second step. */
export const LoginAnswer = z.union([SecondFactorChallenge, SessionResponse]);
export type LoginAnswer = z.infer<typeof LoginAnswer>;

export function isSecondFactorChallenge(answer: LoginAnswer): answer is SecondFactorChallenge {
  return 'secondFactor' in answer && 'challengeId' in answer;
}

export const TOTP_DIGITS = 6;
/** Recovery codes: ten characters of Crockford's base32 (no i, l, o, u), shown as `xxxxx-xxxxx`. */
export const RECOVERY_CODE_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
export const RECOVERY_CODE_LENGTH = 10;

/**
 * A code as typed: the 6 digits an app shows ("123 456" too), or a recovery
 * code (case, spaces and the hyphen do not matter). Normalized: digits, or
 * ten lower-case characters.
 */
export const SecondFactorCode = z.string().check(
  z.maxLength(64, 'code is too long'),
  z.overwrite((s) => s.replace(/[\s-]/g, '').toLowerCase()),
  z.regex(
    /^(\d{6}|[0-9a-hjkmnp-tv-z]{10})$/,
    'code must be the 6-digit code from your authenticator app, or a recovery code',
  ),
);

export const SecondFactorRequest = z.strictObject({
  challengeId: z
    .string()
    .check(z.minLength(1, 'challengeId is required'), z.maxLength(200, 'challengeId is too long')),
  code: SecondFactorCode,
  /** As on the password step: the session starts here. */
  timeZone: z.optional(BrowserTimeZone),
});
export type SecondFactorRequest = z.infer<typeof SecondFactorRequest>;

/** A new session; after an enrolment, with the recovery codes, shown this once. */
export const SecondFactorSessionResponse = z.extend(SessionResponse, {
  recoveryCodes: z.optional(z.array(z.string())),
});
export type SecondFactorSessionResponse = z.infer<typeof SecondFactorSessionResponse>;

/** GET /api/console/account/second-factor/: the signed-in member's own factor. */
export const AccountSecondFactor = z.looseObject({
  enrolled: z.boolean(),
  enrolledAt: z.nullable(z.string()),
  recoveryCodesLeft: z.number(),
  /** Whether sign-in demands one of this member (their role and the server's policy). */
  required: z.boolean(),
  /** A sandbox demo member: their password is published, so no factor and no password change. */
  demoMember: z.boolean(),
});
export type AccountSecondFactor = z.infer<typeof AccountSecondFactor>;

const CurrentPassword = z
  .string()
  .check(
    z.minLength(1, 'your current password is required'),
    z.maxLength(1024, 'password is too long'),
  );

/** Starting an enrolment (or replacing a factor) asks for the password again. */
export const EnrolmentStartRequest = z.strictObject({ password: CurrentPassword });
export type EnrolmentStartRequest = z.infer<typeof EnrolmentStartRequest>;

export const EnrolmentStarted = z.extend(SecondFactorEnrolment, {
  enrolmentId: z.string(),
  expiresAt: z.string(),
});
export type EnrolmentStarted = z.infer<typeof EnrolmentStarted>;

export const EnrolmentConfirmRequest = z.strictObject({
  enrolmentId: z
    .string()
    .check(z.minLength(1, 'enrolmentId is required'), z.maxLength(200, 'enrolmentId is too long')),
  code: SecondFactorCode,
});
export type EnrolmentConfirmRequest = z.infer<typeof EnrolmentConfirmRequest>;

export const RecoveryCodesRequest = z.strictObject({ password: CurrentPassword });
export type RecoveryCodesRequest = z.infer<typeof RecoveryCodesRequest>;

/** New recovery codes (the old ones no longer work), shown this once. */
export const RecoveryCodesResponse = z.looseObject({
  recoveryCodes: z.array(z.string()),
  /** After a (re-)enrolment: the member's other sessions, ended. */
  otherSessionsEnded: z.optional(z.number()),
});
export type RecoveryCodesResponse = z.infer<typeof RecoveryCodesResponse>;

export const PasswordChangeRequest = z.strictObject({
  currentPassword: CurrentPassword,
  /** The rules of every staff password (the CLI's and the staff page's). */
  newPassword: staffPassword('newPassword'),
});
export type PasswordChangeRequest = z.infer<typeof PasswordChangeRequest>;

export const PasswordChanged = z.looseObject({ otherSessionsEnded: z.number() });
export type PasswordChanged = z.infer<typeof PasswordChanged>;

export const AuditEntry = z.looseObject({
  id: z.string(),
  at: z.string(),
  actorType: z.string(),
  actorId: z.nullable(z.string()),
  actorName: z.optional(z.nullable(z.string())),
  action: z.string(),
  entityType: z.nullable(z.string()),
  entityId: z.nullable(z.string()),
  summary: z.string(),
  outcome: AuditOutcome,
  requestId: z.nullable(z.string()),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditListResponse = listEnvelope(AuditEntry);
export type AuditListResponse = z.infer<typeof AuditListResponse>;

export const SESSION_COOKIE = 'cc_session';
/**
 * The session cookie's name where the console is served over HTTPS: the
 * browser keeps a `__Host-` cookie only if it is Secure, for Path=/ and
 * without a Domain, so a sibling subdomain cannot set one for the console.
 */
export const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

/**
 * Passkeys and security keys (WebAuthn). The options the server answers are
 * what `navigator.credentials.get()` and `.create()` take, in their JSON form
 * (binary values base64url); the browser's answers come back the same way.
 * The server checks every part of them (auth/passkeys.ts); here only their
 * shape and sizes.
 */
const base64url = (field: string, max: number) =>
  z
    .string()
    .check(
      z.minLength(1, `${field} is required`),
      z.maxLength(max, `${field} is too long`),
      z.regex(/^[A-Za-z0-9_-]+={0,2}$/, `${field} must be base64url`),
    );

const CredentialDescriptor = z.looseObject({
  id: z.string(),
  type: z.literal('public-key'),
  transports: z.optional(z.array(z.string())),
});

/** What `navigator.credentials.get()` takes (PublicKeyCredentialRequestOptionsJSON). */
export const PasskeyRequestOptions = z.looseObject({
  challenge: z.string(),
  timeout: z.optional(z.number()),
  rpId: z.optional(z.string()),
  allowCredentials: z.optional(z.array(CredentialDescriptor)),
  userVerification: z.optional(z.enum(['required', 'preferred', 'discouraged'])),
});
export type PasskeyRequestOptions = z.infer<typeof PasskeyRequestOptions>;

/** What `navigator.credentials.create()` takes (PublicKeyCredentialCreationOptionsJSON). */
export const PasskeyCreationOptions = z.looseObject({
  rp: z.looseObject({ name: z.string(), id: z.optional(z.string()) }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.looseObject({ alg: z.number(), type: z.literal('public-key') })),
  timeout: z.optional(z.number()),
  excludeCredentials: z.optional(z.array(CredentialDescriptor)),
  attestation: z.optional(z.string()),
});
export type PasskeyCreationOptions = z.infer<typeof PasskeyCreationOptions>;

const AUTHENTICATOR_ATTACHMENTS = ['platform', 'cross-platform'] as const;

/** The browser's answer to `get()` (AuthenticationResponseJSON): an assertion. */
export const PasskeyAssertion = z.looseObject({
  id: base64url('credential.id', 1400),
  rawId: base64url('credential.rawId', 1400),
  type: z.literal('public-key', 'credential.type must be public-key'),
  response: z.looseObject({
    clientDataJSON: base64url('credential.response.clientDataJSON', 4000),
    authenticatorData: base64url('credential.response.authenticatorData', 4000),
    signature: base64url('credential.response.signature', 1000),
    userHandle: z.optional(z.string().check(z.maxLength(200, 'userHandle is too long'))),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.optional(z.enum(AUTHENTICATOR_ATTACHMENTS)),
});
export type PasskeyAssertion = z.infer<typeof PasskeyAssertion>;

/** The browser's answer to `create()` (RegistrationResponseJSON): a new credential. */
export const PasskeyAttestation = z.looseObject({
  id: base64url('credential.id', 1400),
  rawId: base64url('credential.rawId', 1400),
  type: z.literal('public-key', 'credential.type must be public-key'),
  response: z.looseObject({
    clientDataJSON: base64url('credential.response.clientDataJSON', 4000),
    attestationObject: base64url('credential.response.attestationObject', 12000),
    transports: z.optional(z.array(z.string().check(z.maxLength(40, 'a transport is too long')))),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
  authenticatorAttachment: z.optional(z.enum(AUTHENTICATOR_ATTACHMENTS)),
});
export type PasskeyAttestation = z.infer<typeof PasskeyAttestation>;

/** POST /auth/login/passkey: the sign-in step completed with a passkey instead of a code. */
export const PasskeySignInRequest = z.strictObject({
  challengeId: z
    .string()
    .check(z.minLength(1, 'challengeId is required'), z.maxLength(200, 'challengeId is too long')),
  credential: PasskeyAssertion,
  timeZone: z.optional(BrowserTimeZone),
});
export type PasskeySignInRequest = z.infer<typeof PasskeySignInRequest>;

/** `security key`: a key of its own (USB, NFC, Bluetooth); `passkey`: one in a device or synced. */
export const PASSKEY_KINDS = ['passkey', 'security key'] as const;
export type PasskeyKind = (typeof PASSKEY_KINDS)[number];

export const Passkey = z.looseObject({
  id: z.string(),
  name: z.string(),
  kind: z.enum(PASSKEY_KINDS),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
});
export type Passkey = z.infer<typeof Passkey>;

/** GET /api/console/account/passkeys/: the member's own passkeys. */
export const AccountPasskeys = z.looseObject({
  passkeys: z.array(Passkey),
  /** Whether this member is asked to register one (their role, the server's setting). */
  asked: z.boolean(),
  demoMember: z.boolean(),
});
export type AccountPasskeys = z.infer<typeof AccountPasskeys>;

export const PasskeyRegistrationStartRequest = z.strictObject({ password: CurrentPassword });
export type PasskeyRegistrationStartRequest = z.infer<typeof PasskeyRegistrationStartRequest>;

export const PasskeyRegistrationStarted = z.looseObject({
  registrationId: z.string(),
  expiresAt: z.string(),
  options: PasskeyCreationOptions,
});
export type PasskeyRegistrationStarted = z.infer<typeof PasskeyRegistrationStarted>;

/** A passkey's name as the member gives it: one line, shown on the account page and with a signature. */
const passkeyName = z.string().check(
  z.trim(),
  z.minLength(1, 'name is required'),
  z.maxLength(60, 'name must be at most 60 characters'),
  z.superRefine((value, ctx) => {
    const problem = displayTextProblem('name', value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

export const PasskeyRegistrationRequest = z.strictObject({
  registrationId: z
    .string()
    .check(
      z.minLength(1, 'registrationId is required'),
      z.maxLength(200, 'registrationId is too long'),
    ),
  name: passkeyName,
  credential: PasskeyAttestation,
});
export type PasskeyRegistrationRequest = z.infer<typeof PasskeyRegistrationRequest>;

export const PasskeyRemoveRequest = z.strictObject({ password: CurrentPassword });
export type PasskeyRemoveRequest = z.infer<typeof PasskeyRemoveRequest>;
