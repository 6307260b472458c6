import type { Database } from '../db/client.ts';
import { hashPassword } from './password.ts';
import { clearFactor, endChallenges, revokeOtherSessions } from './second-factor.store.ts';
import { setPasswordHash } from './staff.store.ts';

/**
 * Changing a member's credentials, from the account page or the CLI. Either
 * ends what the old credentials opened: every other session, and every
 * sign-in step under way.
 */

/** Sets the password; ends every session but `keepSession` (the account page's own). Answers those ended. */
export async function replacePassword(
  db: Database,
  staffId: string,
  password: string,
  now: Date,
  keepSession: string | null,
): Promise<string[]> {
  await setPasswordHash(db, staffId, await hashPassword(password));
  await endChallenges(db, staffId, now);
  return revokeOtherSessions(db, staffId, keepSession, now);
}

/**
 * The CLI's reset of a lost factor: no factor, no recovery codes, and every
 * session ended, so the member sets up a new factor at their next sign-in
 * (when their role requires one). Answers whether there was a factor, and
 * how many sessions ended.
 */
export async function resetFactor(
  db: Database,
  staffId: string,
  now: Date,
): Promise<{ hadFactor: boolean; sessionsEnded: number; endedSessionIds: string[] }> {
  const hadFactor = await clearFactor(db, staffId, now);
  const endedSessionIds = await revokeOtherSessions(db, staffId, null, now);
  return { hadFactor, sessionsEnded: endedSessionIds.length, endedSessionIds };
}
