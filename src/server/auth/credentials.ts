import type { Database } from '../db/client.ts';
import { clearPasskeys } from './passkeys.store.ts';
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
 * The reset of a lost factor (the CLI's, or an approved staff proposal): no
 * authenticator app, no recovery codes, no passkeys, and every session ended,
 * so the member sets up a new factor at their next sign-in (when their role
 * requires one). Answers whether there was a factor, how many passkeys went,
 * and how many sessions ended.
 */
export async function resetFactor(
  db: Database,
  staffId: string,
  now: Date,
): Promise<{
  hadFactor: boolean;
  passkeysRemoved: number;
  sessionsEnded: number;
  endedSessionIds: string[];
}> {
  const hadTotp = await clearFactor(db, staffId, now);
  const passkeysRemoved = await clearPasskeys(db, staffId);
  const endedSessionIds = await revokeOtherSessions(db, staffId, null, now);
  return {
    hadFactor: hadTotp || passkeysRemoved > 0,
    passkeysRemoved,
    sessionsEnded: endedSessionIds.length,
    endedSessionIds,
  };
}
