import {
  LoginAnswer,
  LoginRequest,
  PasskeySignInRequest,
  SecondFactorRequest,
  SecondFactorSessionResponse,
  StaffSetupDone,
  StaffSetupRequest,
} from '../auth.ts';
import { endpoint } from '../endpoint.ts';

// Every page reads the session and may sign out: those are declared apart (first load).
export { currentSession, demoAccounts, signOut } from './session-state.ts';

/**
 * Signing in and out (server/auth/session.routes.ts, second-factor.routes.ts):
 * open without a session, each checking its own (the same-origin check, the
 * sign-in budget and throttle, the CSRF token to sign out).
 */

export const signIn = endpoint({
  method: 'POST',
  path: '/auth/login',
  summary:
    'Signs in with email and password: a session (its cookie and CSRF token), or the second factor’s step.',
  action: 'sign in',
  permission: 'public',
  audit: { action: 'auth.login', entityType: 'STAFF', selfRecorded: true, anonymous: true },
  body: LoginRequest,
  answer: LoginAnswer,
});

export const signInSecondFactor = endpoint({
  method: 'POST',
  path: '/auth/login/second-factor',
  summary: 'Completes a sign-in with the code of the second factor (or sets one up): a session.',
  action: 'complete a sign-in',
  permission: 'public',
  // Refusals of a step nobody can tie to a member (unknown, expired) leave no row.
  audit: { action: 'auth.second_factor', entityType: 'STAFF', selfRecorded: true },
  body: SecondFactorRequest,
  answer: SecondFactorSessionResponse,
});

export const signInPasskey = endpoint({
  method: 'POST',
  path: '/auth/login/passkey',
  summary: "Completes a sign-in with one of the member's passkeys instead of a code: a session.",
  action: 'complete a sign-in',
  permission: 'public',
  audit: { action: 'auth.second_factor', entityType: 'STAFF', selfRecorded: true },
  body: PasskeySignInRequest,
  answer: SecondFactorSessionResponse,
});

export const setUpAccount = endpoint({
  method: 'POST',
  path: '/auth/setup',
  summary:
    "A new member's first step: their one-time set-up code and the password they choose (then they sign in and enrol their second factor).",
  action: 'set up an account',
  permission: 'public',
  audit: { action: 'staff.setup', entityType: 'STAFF', selfRecorded: true, anonymous: true },
  body: StaffSetupRequest,
  answer: StaffSetupDone,
});
