import { hash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { cachedRead } from '../db/read-cache.ts';
import { sessions, staff } from '../db/schema/console.ts';
import type { StaffRecord } from './staff.store.ts';
import { effectiveDisplay } from '#contract/display.ts';

/**
 * Staff sessions. The cookie holds a random token; the database keeps only its
 * SHA-256, so a copy of the table cannot be replayed as cookies. Expiry is
 * checked against the injected clock (`src/server/clock.ts`), so tests never sleep.
 */

export const SESSION_ABSOLUTE_MS = 8 * 60 * 60_000;
const SESSION_IDLE_MS = 30 * 60_000;
// Writing last_seen_at on every request would make each read a write; a
// minute of slack on a 30-minute idle limit costs nothing.
const LAST_SEEN_THROTTLE_MS = 60_000;

export type SessionRow = typeof sessions.$inferSelect;

// Every signed-in request hashes its cookie's token: the one-shot hash, a quarter of
// createHash's cost (no Hash object per call).
function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export interface NewSession {
  /** Goes into the cookie and nowhere else. */
  token: string;
  row: SessionRow;
}

export async function createSession(
  db: Database,
  staffId: string,
  now: Date,
  client: {
    ip?: string | null;
    userAgent?: string | null;
    browserTimeZone?: string | null;
    /**
     * A single sign-on's provider configuration and access token, for the
     * periodic check (auth/sso/session-check.ts); the refresh token is the
     * member's, kept apart (auth/sso/refresh-tokens.ts).
     */
    sso?: { issuer: string; clientId: string; accessToken: string; accessExpiresAt: Date | null };
  } = {},
): Promise<NewSession> {
  const token = randomBytes(32).toString('base64url');
  const [row] = await db
    .insert(sessions)
    .values({
      id: randomUUID(),
      tokenHash: hashToken(token),
      staffId,
      csrfToken: randomBytes(32).toString('base64url'),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
      ip: client.ip ?? null,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      browserTimeZone: client.browserTimeZone ?? null,
      ...(client.sso
        ? {
            ssoIssuer: client.sso.issuer,
            ssoClientId: client.sso.clientId,
            ssoAccessToken: client.sso.accessToken,
            ssoAccessExpiresAt: client.sso.accessExpiresAt,
            ssoCheckedAt: now,
          }
        : {}),
    })
    .returning();
  if (!row) throw new Error('createSession: nothing inserted');
  return { token, row };
}

export function idleExpiresAt(row: Pick<SessionRow, 'lastSeenAt'>): Date {
  return new Date(row.lastSeenAt.getTime() + SESSION_IDLE_MS);
}

export type SessionLookup =
  | { ok: true; session: SessionRow; member: StaffRecord }
  | { ok: false; reason: 'unknown' | 'revoked' | 'expired' | 'idle' | 'disabled' };

/** What createSession puts in a cookie: 32 random bytes, base64url. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The live session a cookie token names, touching last_seen_at; or why there
 * is none. A made-up cookie is cheap, so a flood of them costs little: one
 * of the wrong shape is refused before any read, and one of the right shape
 * costs one indexed lookup and no read-cache slot (only a session found is
 * kept).
 */
export async function resolveSession(
  db: Database,
  token: string,
  now: Date,
): Promise<SessionLookup> {
  if (!TOKEN_SHAPE.test(token)) return { ok: false, reason: 'unknown' };
  const tokenHash = hashToken(token);
  // Unchanged while neither table changes (db/read-cache.ts): revoking, disabling or a role change is a write to one.
  const [found] = await cachedRead(
    `session:${tokenHash}`,
    () =>
      db
        .select({ session: sessions, member: staff })
        .from(sessions)
        .innerJoin(staff, eq(staff.id, sessions.staffId))
        .where(eq(sessions.tokenHash, tokenHash))
        .limit(1),
    [sessions, staff],
    { keep: (rows) => rows.length > 0 },
  );
  if (!found) return { ok: false, reason: 'unknown' };
  // A copy: the cached row is shared by every request that finds it.
  const session = { ...found.session };
  const member = found.member;
  if (session.revokedAt) return { ok: false, reason: 'revoked' };
  if (member.disabled) return { ok: false, reason: 'disabled' };
  if (now >= session.expiresAt) return { ok: false, reason: 'expired' };
  if (now >= idleExpiresAt(session)) return { ok: false, reason: 'idle' };
  if (now.getTime() - session.lastSeenAt.getTime() >= LAST_SEEN_THROTTLE_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, session.id));
    session.lastSeenAt = now;
  }
  return { ok: true, session, member };
}

/**
 * Which of `ids` are live sessions at `now`, each with the time it ends unless used again
 * (its absolute or idle expiry, the earlier): the rules of `resolveSession`, for sessions
 * already resolved once. An open event stream is sent nothing its session would not be
 * (capabilities/live/hub.ts).
 */
export async function liveSessions(
  db: Database,
  ids: readonly string[],
  now: Date,
): Promise<Map<string, Date>> {
  const live = new Map<string, Date>();
  if (ids.length === 0) return live;
  const rows = await db
    .select({ id: sessions.id, expiresAt: sessions.expiresAt, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(staff, eq(staff.id, sessions.staffId))
    .where(
      and(inArray(sessions.id, [...ids]), isNull(sessions.revokedAt), eq(staff.disabled, false)),
    );
  for (const row of rows) {
    const endsAt = Math.min(row.expiresAt.getTime(), idleExpiresAt(row).getTime());
    if (endsAt > now.getTime()) live.set(row.id, new Date(endsAt));
  }
  return live;
}

export async function revokeSession(db: Database, sessionId: string, now: Date): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/**
 * Every live session of a member: on disable (and whenever their access must end now).
 * Answers the sessions ended, for `endSessionStreams` (session-auth.ts).
 */
export async function revokeStaffSessions(
  db: Database,
  staffId: string,
  now: Date,
): Promise<string[]> {
  const ended = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.staffId, staffId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
  return ended.map((row) => row.id);
}

/**
 * The zone this member's times are shown in: their own choice, else the zone
 * their browser reported when this session began, else UTC (as the pages
 * show them: contract/display.ts).
 */
export async function sessionTimeZone(
  db: Database,
  member: Pick<StaffRecord, 'timeZone'>,
  sessionId: string | undefined,
): Promise<string> {
  if (member.timeZone) return member.timeZone;
  const [session] = sessionId
    ? await db
        .select({ browserTimeZone: sessions.browserTimeZone })
        .from(sessions)
        .where(eq(sessions.id, sessionId))
    : [];
  return effectiveDisplay({
    chosenTimeZone: null,
    browserTimeZone: session?.browserTimeZone ?? null,
    colorScheme: 'system',
  }).timeZone;
}
