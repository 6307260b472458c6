import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, count, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import {
  sessions,
  signInChallenges,
  staffFactors,
  staffRecoveryCodes,
} from '../db/schema/console.ts';
import { hashRecoveryCode, newRecoveryCodes } from './second-factor.ts';

/**
 * The second factor's state, in the database so every console server agrees:
 * each member's factor, their recovery codes, the sign-in steps under way and
 * the throttle on guesses. Every limit is enforced by one conditional UPDATE
 * that counts a try before it is checked, so concurrent tries cannot all pass
 * a check that each of them reads before any records (the sign-in throttle's
 * issue-24 finding 1, avoided here from the start).
 */

export type ChallengeKind = (typeof signInChallenges.$inferSelect)['kind'];
export type Challenge = typeof signInChallenges.$inferSelect;
export type Factor = typeof staffFactors.$inferSelect;

/** How long a sign-in step or an enrolment stays open. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** Codes one step may be tried with; then the password is needed again. */
export const CHALLENGE_ATTEMPTS = 5;
/** Wrong codes (or passwords, on the account page) per member before waits begin. */
export const FREE_MEMBER_FAILURES = 5;
/** Failures older than this no longer count. */
export const MEMBER_WINDOW_MS = 60 * 60_000;
const LONGEST_WAIT_S = 15 * 60;

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

function timestamp(at: Date) {
  return sql`${at.toISOString()}::timestamptz`;
}

// ---- Factors ---------------------------------------------------------------

export async function getFactor(db: Database, staffId: string): Promise<Factor | undefined> {
  const [row] = await db
    .select()
    .from(staffFactors)
    .where(eq(staffFactors.staffId, staffId))
    .limit(1);
  return row;
}

/** Whether the member has a confirmed factor. */
export function isEnrolled(factor: Factor | undefined): factor is Factor & { secret: string } {
  return Boolean(factor?.secret);
}

/**
 * Sets the member's factor, confirmed by a code of `step`. `onlyIfNone`: a
 * sign-in enrolment, which must not replace a factor set up meanwhile.
 * False when it did not.
 */
export async function setFactor(
  db: Database,
  staffId: string,
  secret: string,
  step: number,
  now: Date,
  options: { onlyIfNone: boolean },
): Promise<boolean> {
  const values = {
    staffId,
    secret,
    enrolledAt: now,
    lastStep: step,
    failures: 0,
    lastFailureAt: null,
  };
  const [row] = await db
    .insert(staffFactors)
    .values(values)
    .onConflictDoUpdate({
      target: staffFactors.staffId,
      set: { secret, enrolledAt: now, lastStep: step, failures: 0, lastFailureAt: null },
      ...(options.onlyIfNone ? { setWhere: isNull(staffFactors.secret) } : {}),
    })
    .returning({ staffId: staffFactors.staffId });
  return row !== undefined;
}

/**
 * Accepts a TOTP code's step if it is newer than every step accepted before
 * from this member, for the factor `secret` still is. False: a replay (or
 * the factor changed meanwhile).
 */
export async function acceptStep(
  db: Database,
  staffId: string,
  secret: string,
  step: number,
): Promise<boolean> {
  const [row] = await db
    .update(staffFactors)
    .set({ lastStep: step })
    .where(
      and(
        eq(staffFactors.staffId, staffId),
        eq(staffFactors.secret, secret),
        or(isNull(staffFactors.lastStep), lt(staffFactors.lastStep, step)),
      ),
    )
    .returning({ staffId: staffFactors.staffId });
  return row !== undefined;
}

/**
 * The reset of a lost factor (CLI, or a staff proposal): no factor, no recovery codes, no step
 * under way; the throttle stays. Passkeys are cleared beside it (credentials.ts `resetFactor`).
 */
export async function clearFactor(db: Database, staffId: string, now: Date): Promise<boolean> {
  const [row] = await db
    .update(staffFactors)
    .set({ secret: null, enrolledAt: null, lastStep: null })
    .where(and(eq(staffFactors.staffId, staffId), sql`${staffFactors.secret} is not null`))
    .returning({ staffId: staffFactors.staffId });
  await db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staffId));
  await endChallenges(db, staffId, now);
  return row !== undefined;
}

// ---- Recovery codes ------------------------------------------------------------

/** Ten new codes; the member's earlier ones stop working. Answers them in clear, the only time. */
export async function replaceRecoveryCodes(
  db: Database,
  staffId: string,
  now: Date,
): Promise<string[]> {
  const codes = newRecoveryCodes();
  await db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.staffId, staffId));
  await db
    .insert(staffRecoveryCodes)
    .values(codes.map((code) => ({ staffId, codeHash: hashRecoveryCode(code), createdAt: now })));
  return codes;
}

/** Spends one recovery code; false when it is not one of the member's unused codes. */
export async function useRecoveryCode(
  db: Database,
  staffId: string,
  code: string,
  now: Date,
): Promise<boolean> {
  const [row] = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(staffRecoveryCodes.staffId, staffId),
        eq(staffRecoveryCodes.codeHash, hashRecoveryCode(code)),
        isNull(staffRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: staffRecoveryCodes.id });
  return row !== undefined;
}

export async function recoveryCodesLeft(db: Database, staffId: string): Promise<number> {
  const [row] = await db
    .select({ left: count() })
    .from(staffRecoveryCodes)
    .where(and(eq(staffRecoveryCodes.staffId, staffId), isNull(staffRecoveryCodes.usedAt)));
  return row?.left ?? 0;
}

// ---- Sign-in steps and enrolments ------------------------------------------------

export interface NewChallenge {
  /** Goes to the browser and nowhere else; the table keeps its SHA-256. */
  token: string;
  row: Challenge;
}

export async function createChallenge(
  db: Database,
  staffId: string,
  kind: ChallengeKind,
  now: Date,
  pendingSecret: string | null = null,
  /** A passkey's challenge (base64url): what the member's authenticator must sign in this step. */
  webauthnChallenge: string | null = null,
): Promise<NewChallenge> {
  // Steps nobody finished stay only until they expire.
  await db.delete(signInChallenges).where(lt(signInChallenges.expiresAt, now));
  const token = randomBytes(32).toString('base64url');
  const [row] = await db
    .insert(signInChallenges)
    .values({
      id: randomUUID(),
      tokenHash: hashToken(token),
      staffId,
      kind,
      pendingSecret,
      webauthnChallenge,
      createdAt: now,
      expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS),
    })
    .returning();
  if (!row) throw new Error('createChallenge: nothing inserted');
  return { token, row };
}

export type ChallengeTry =
  { ok: true; challenge: Challenge } | { ok: false; reason: 'unknown' | 'spent' };

/**
 * Counts one code against the step `token` names, if it is open (not used,
 * not expired, fewer than five codes tried) and of one of `kinds` (and, for
 * an enrolment on the account page, of `staffId`).
 */
export async function tryChallenge(
  db: Database,
  token: string,
  kinds: readonly ChallengeKind[],
  now: Date,
  staffId?: string,
): Promise<ChallengeTry> {
  const mine = and(
    eq(signInChallenges.tokenHash, hashToken(token)),
    inArray(signInChallenges.kind, [...kinds]),
    staffId === undefined ? undefined : eq(signInChallenges.staffId, staffId),
  );
  const [challenge] = await db
    .update(signInChallenges)
    .set({ attempts: sql`${signInChallenges.attempts} + 1` })
    .where(
      and(
        mine,
        isNull(signInChallenges.usedAt),
        gt(signInChallenges.expiresAt, now),
        lt(signInChallenges.attempts, CHALLENGE_ATTEMPTS),
      ),
    )
    .returning();
  if (challenge) return { ok: true, challenge };
  const [seen] = await db
    .select({ attempts: signInChallenges.attempts })
    .from(signInChallenges)
    .where(and(mine, isNull(signInChallenges.usedAt), gt(signInChallenges.expiresAt, now)))
    .limit(1);
  return { ok: false, reason: seen ? 'spent' : 'unknown' };
}

/** Marks the step used; false when another request used it first. */
export async function claimChallenge(db: Database, id: string, now: Date): Promise<boolean> {
  const [row] = await db
    .update(signInChallenges)
    .set({ usedAt: now })
    .where(and(eq(signInChallenges.id, id), isNull(signInChallenges.usedAt)))
    .returning({ id: signInChallenges.id });
  return row !== undefined;
}

/** Every open step of a member ends: their password or factor changed. */
export async function endChallenges(db: Database, staffId: string, now: Date): Promise<void> {
  await db
    .update(signInChallenges)
    .set({ usedAt: now })
    .where(and(eq(signInChallenges.staffId, staffId), isNull(signInChallenges.usedAt)));
}

// ---- The throttle on guessing a member's second factor (or password) ---------------

/**
 * How long after its latest failure the count lets the next try through: none while fewer
 * than five have failed; then 1 s after the fifth, 2 s after the sixth, 4 s… up to 15 min.
 */
export function memberWaitMs(failures: number): number {
  if (failures < FREE_MEMBER_FAILURES) return 0;
  return Math.min(LONGEST_WAIT_S, 2 ** Math.min(failures - FREE_MEMBER_FAILURES, 30)) * 1000;
}

export type MemberTry = { ok: true } | { ok: false; retryAt: Date };

/**
 * Counts a try at this member's second factor (or password) before it is
 * checked, unless the count's wait has not passed; the check that follows
 * calls `clearMemberFailures` when it succeeds. One UPDATE decides and
 * records, so forty concurrent tries are counted one by one.
 */
export async function tryMember(db: Database, staffId: string, now: Date): Promise<MemberTry> {
  await db.insert(staffFactors).values({ staffId }).onConflictDoNothing();
  const windowStart = new Date(now.getTime() - MEMBER_WINDOW_MS);
  const stale = or(isNull(staffFactors.lastFailureAt), lt(staffFactors.lastFailureAt, windowStart));
  // The count holds the tries already made (each counted before it was checked): the sixth
  // try in the window finds five and waits, as memberWaitMs says.
  const waited = sql`${staffFactors.lastFailureAt} + make_interval(secs => least(${LONGEST_WAIT_S}, power(2, least(${staffFactors.failures} - ${FREE_MEMBER_FAILURES}, 30)))) <= ${timestamp(now)}`;
  const [row] = await db
    .update(staffFactors)
    .set({
      failures: sql`case when ${stale} then 1 else ${staffFactors.failures} + 1 end`,
      lastFailureAt: now,
    })
    .where(
      and(
        eq(staffFactors.staffId, staffId),
        or(stale, lt(staffFactors.failures, FREE_MEMBER_FAILURES), waited),
      ),
    )
    .returning({ failures: staffFactors.failures });
  if (row) return { ok: true };
  const factor = await getFactor(db, staffId);
  const last = factor?.lastFailureAt?.getTime() ?? now.getTime();
  return { ok: false, retryAt: new Date(last + memberWaitMs(factor?.failures ?? 0)) };
}

export async function clearMemberFailures(db: Database, staffId: string): Promise<void> {
  await db
    .update(staffFactors)
    .set({ failures: 0, lastFailureAt: null })
    .where(eq(staffFactors.staffId, staffId));
}

// ---- Sessions -----------------------------------------------------------------

/** Ends every live session of the member but `keep`; answers those it ended. */
export async function revokeOtherSessions(
  db: Database,
  staffId: string,
  keep: string | null,
  now: Date,
): Promise<string[]> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.staffId, staffId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        keep === null ? undefined : ne(sessions.id, keep),
      ),
    )
    .returning({ id: sessions.id });
  return ended.map((row) => row.id);
}
