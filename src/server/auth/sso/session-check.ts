import { and, eq, gt, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { Logger } from 'pino';
import { sessions, staff } from '../../db/schema/console.ts';
import { recordAudit } from '../audit.store.ts';
import { endSessionStreams, type AuthOptions } from '../session-auth.ts';
import { revokeSession } from '../session.store.ts';
import { checkWithProvider, type StillAllowed } from './oidc.ts';
import { memberRefreshToken, settleRefreshToken } from './refresh-tokens.ts';
import { readSsoSettings } from '../sso.store.ts';

/**
 * Sessions begun by single sign-on end soon after the provider stops letting
 * their member in: every `intervalMs` each live one is checked with the
 * provider: a refresh-token grant with the member's latest refresh token for
 * the configuration the session began under (refresh-tokens.ts), else
 * userinfo with the session's access token while it lives. A refusal ends the
 * session and is audited, and so does an access token past its expiry with no
 * refresh token (nothing can vouch for the member any longer); a provider
 * that cannot be reached ends nothing (the next round asks again). With
 * single sign-on turned off, or another issuer or client id in force, every
 * such session ends: their members were let in by a provider no longer trusted.
 */

export interface CheckRound {
  checked: number;
  ended: number;
  unreachable: number;
}

export async function checkSsoSessions(
  options: AuthOptions,
  intervalMs = 5 * 60_000,
): Promise<CheckRound> {
  const { db, clock } = options;
  const now = clock.now();
  const due = await db
    .select({
      id: sessions.id,
      staffId: sessions.staffId,
      issuer: sessions.ssoIssuer,
      clientId: sessions.ssoClientId,
      accessToken: sessions.ssoAccessToken,
      accessExpiresAt: sessions.ssoAccessExpiresAt,
      email: staff.email,
      name: staff.name,
    })
    .from(sessions)
    .innerJoin(staff, eq(staff.id, sessions.staffId))
    .where(
      and(
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        isNotNull(sessions.ssoIssuer),
        or(
          isNull(sessions.ssoCheckedAt),
          lte(sessions.ssoCheckedAt, new Date(now.getTime() - intervalMs)),
        ),
      ),
    );
  const round: CheckRound = { checked: 0, ended: 0, unreachable: 0 };
  if (due.length === 0) return round;
  const settings = await readSsoSettings(db);
  const ended = new Set<string>();
  for (const session of due) {
    if (ended.has(session.id)) continue;
    round.checked += 1;
    let answer: StillAllowed;
    // The member's other sessions under this configuration, when their refresh token is refused.
    let alongside: string[] = [];
    if (!settings?.enabled) answer = { ok: false, reason: 'single sign-on is turned off' };
    else if (settings.issuer !== session.issuer || settings.clientId !== session.clientId)
      answer = { ok: false, reason: 'single sign-on now trusts another issuer or client id' };
    else {
      const key = {
        staffId: session.staffId,
        issuer: settings.issuer,
        clientId: settings.clientId,
      };
      // Read afresh for each session: an earlier one's check may have rotated it.
      const refreshToken = await memberRefreshToken(db, key);
      answer = await checkWithProvider(settings, { ...session, refreshToken }, clock.now());
      if (refreshToken && answer.ok !== 'unknown')
        await settleRefreshToken(
          db,
          key,
          refreshToken,
          answer.ok ? answer.refreshToken : null,
          clock.now(),
        );
      // The refusal is the member's, not this session's: their other sessions end with it
      // (left to their access tokens they could outlive it).
      if (refreshToken && answer.ok === false)
        alongside = (
          await db
            .select({ id: sessions.id })
            .from(sessions)
            .where(
              and(
                eq(sessions.staffId, session.staffId),
                eq(sessions.ssoIssuer, settings.issuer),
                eq(sessions.ssoClientId, settings.clientId),
                isNull(sessions.revokedAt),
                gt(sessions.expiresAt, now),
              ),
            )
        )
          .map((row) => row.id)
          .filter((id) => id !== session.id);
    }
    if (answer.ok === 'unknown') {
      round.unreachable += 1;
      continue;
    }
    if (answer.ok) {
      await db
        .update(sessions)
        .set({
          ssoAccessToken: answer.accessToken,
          ssoAccessExpiresAt: answer.accessExpiresAt,
          ssoCheckedAt: clock.now(),
        })
        .where(eq(sessions.id, session.id));
      continue;
    }
    const ending = [session.id, ...alongside];
    round.ended += ending.length;
    for (const id of ending) {
      ended.add(id);
      await revokeSession(db, id, clock.now());
    }
    endSessionStreams(options, ending);
    await recordAudit(db, {
      at: clock.now(),
      actorType: 'SYSTEM',
      actorId: null,
      actorName: 'single sign-on check',
      action: 'sso.session_check',
      entityType: 'STAFF',
      entityId: session.staffId,
      summary: `${ending.length === 1 ? 'Session' : `${ending.length} sessions`} of ${session.email} ended: ${answer.reason}`,
      outcome: 'success',
      requestId: null,
      ip: null,
    });
  }
  return round;
}

/**
 * The check, run by the server every minute (or every `intervalMs` if
 * shorter): each round asks only about sessions not checked for `intervalMs`
 * (SSO_CHECK_SECONDS). One round at a time; stopped before the database closes.
 */
export function startSsoSessionCheck(
  options: AuthOptions,
  intervalMs: number,
  logger: Logger,
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const timer = setInterval(
    () => {
      if (stopped) return;
      running = running.then(() =>
        checkSsoSessions(options, intervalMs).then(
          (round) => {
            if (round.ended > 0 || round.unreachable > 0)
              logger.info(round, 'single sign-on: sessions checked with the provider');
          },
          (error: unknown) =>
            logger.warn({ err: error }, 'single sign-on: the session check failed'),
        ),
      );
    },
    Math.min(60_000, intervalMs),
  );
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
