import {
  AccountPasskeys,
  AccountSecondFactor,
  Passkey,
  PasskeyRegistrationRequest,
  PasskeyRegistrationStarted,
  PasskeyRegistrationStartRequest,
  PasskeyRemoveRequest,
  EnrolmentConfirmRequest,
  EnrolmentStartRequest,
  EnrolmentStarted,
  PasswordChanged,
  PasswordChangeRequest,
  RecoveryCodesRequest,
  RecoveryCodesResponse,
} from '../auth.ts';
import { DisplaySettingsRequest } from '../display-settings.ts';
import { DisplaySettings } from '../display.ts';
import { endpoint } from '../endpoint.ts';

/**
 * The signed-in member's own account (server/auth/account.routes.ts): every
 * role holds `read`, and each acts on the caller alone. A credential change
 * asks for the current password again; each is audited in the member's name.
 */

const own = (action: string, audited: string) =>
  ({
    action,
    permission: 'read',
    audit: { action: audited, entityType: 'STAFF', selfRecorded: true },
  }) as const;

export const accountSecondFactor = endpoint({
  method: 'GET',
  path: '/api/console/account/second-factor/',
  summary: "The member's own second factor: set up or not, since when, recovery codes left.",
  action: 'read',
  permission: 'read',
  audit: false,
  answer: AccountSecondFactor,
});

export const startEnrolment = endpoint({
  method: 'POST',
  path: '/api/console/account/second-factor/enrolment/',
  summary: 'Begins setting up a new second factor (the current password again): the key, once.',
  ...own('set up their second factor', 'account.second_factor.start'),
  body: EnrolmentStartRequest,
  answer: EnrolmentStarted,
});

export const confirmEnrolment = endpoint({
  method: 'POST',
  path: '/api/console/account/second-factor/enrolment/confirm/',
  summary: "Completes it with the new key's first code: new recovery codes, other sessions ended.",
  ...own('set up their second factor', 'account.second_factor.enrol'),
  body: EnrolmentConfirmRequest,
  answer: RecoveryCodesResponse,
});

export const replaceRecoveryCodes = endpoint({
  method: 'POST',
  path: '/api/console/account/recovery-codes/',
  summary: 'Replaces the recovery codes (the current password again); the earlier ones end.',
  ...own('replace their recovery codes', 'account.recovery_codes'),
  body: RecoveryCodesRequest,
  answer: RecoveryCodesResponse,
});

export const changePassword = endpoint({
  method: 'POST',
  path: '/api/console/account/password/',
  summary: "Changes the member's password; their other sessions end.",
  ...own('change their password', 'account.password'),
  body: PasswordChangeRequest,
  answer: PasswordChanged,
});

export const updateDisplaySettings = endpoint({
  method: 'PATCH',
  path: '/api/console/account/display/',
  summary: "Sets the member's time zone (null: the browser's) and colour scheme.",
  ...own('change their display settings', 'account.display'),
  body: DisplaySettingsRequest,
  answer: DisplaySettings,
});

export const accountPasskeys = endpoint({
  method: 'GET',
  path: '/api/console/account/passkeys/',
  summary: "The member's own passkeys and security keys: names, when added, when last used.",
  action: 'read',
  permission: 'read',
  audit: false,
  answer: AccountPasskeys,
});

export const startPasskeyRegistration = endpoint({
  method: 'POST',
  path: '/api/console/account/passkeys/registration/',
  summary: 'Begins registering a passkey (the current password again): what the browser creates.',
  ...own('register a passkey', 'account.passkey.start'),
  body: PasskeyRegistrationStartRequest,
  answer: PasskeyRegistrationStarted,
});

export const registerPasskey = endpoint({
  method: 'POST',
  path: '/api/console/account/passkeys/',
  summary: "Completes it with the browser's new credential and the name the member gives it.",
  ...own('register a passkey', 'account.passkey.register'),
  body: PasskeyRegistrationRequest,
  answer: Passkey,
  status: 201,
});

export const removePasskey = endpoint({
  method: 'POST',
  path: '/api/console/account/passkeys/:passkeyId/remove/',
  summary: 'Removes one of the member’s passkeys (the current password again).',
  action: 'remove a passkey',
  permission: 'read',
  audit: {
    action: 'account.passkey.remove',
    entityType: 'STAFF',
    entityParam: 'passkeyId',
    selfRecorded: true,
  },
  resource: 'passkey',
  body: PasskeyRemoveRequest,
  answer: Passkey,
});
