import * as z from 'zod/mini';
import {
  DemoAccountList,
  LoginAnswer,
  LoginRequest,
  PasskeySignInRequest,
  SecondFactorRequest,
  SecondFactorSessionResponse,
  SessionResponse,
  StaffSetupDone,
  StaffSetupRequest,
} from '../auth.ts';
import { endpoint } from '../endpoint.ts';

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

export const signOut = endpoint({
  method: 'POST',
  path: '/auth/logout',
  summary: 'Ends the session (its CSRF token required) and clears its cookie.',
  action: 'sign out',
  permission: 'public',
  audit: { action: 'auth.logout', entityType: 'STAFF', selfRecorded: true },
  answer: z.unknown(),
  status: 204,
});

export const currentSession = endpoint({
  method: 'GET',
  path: '/auth/session',
  summary: 'Who is signed in, their permissions and display settings, and the CSRF token.',
  action: 'read',
  permission: 'public',
  audit: false,
  answer: SessionResponse,
});

export const demoAccounts = endpoint({
  method: 'GET',
  path: '/auth/demo-accounts',
  summary: 'Sandbox only: the demo staff to sign in as, with their published passwords.',
  action: 'read',
  permission: 'public',
  audit: false,
  answer: DemoAccountList,
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
