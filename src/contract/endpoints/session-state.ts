import * as z from 'zod/mini';
import { endpoint } from '../endpoint.ts';
import { DemoAccountList, SessionResponse } from '../staff-record.ts';

/**
 * The session as every signed-in page reads it, and signing out: apart from
 * the sign-in steps (`session.ts`, which re-exports these) so that the first
 * load carries neither them nor their schemas.
 */

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
