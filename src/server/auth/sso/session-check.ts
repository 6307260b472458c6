import { and, eq, gt, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { Logger } from 'pino';
import { sessions, staff } from '../../db/schema/console.ts';
import { recordAudit } from '../audit.store.ts';
import { endSessionStreams, type AuthOptions } from '../session-auth.ts';
import { revokeSession } from '../session.store.ts';
import { checkWithProvider } from './oidc.ts';
import { readSsoSettings } from '../sso.store.ts';

/**
 * Sessions begun by single sign-on end soon after the provider stops letting
 * their member in: every `intervalMs` each live one is checked with the
 * provider (a refresh-token grant, else userinfo). A refusal ends the
 * session and is audited; a provider that cannot be reached ends nothing
 * (the next round asks again). With single sign-on turned off, every such
 * session ends: their members were let in by a provider no longer trusted.
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
      refreshToken: sessions.ssoRefreshToken,
      accessToken: sessions.ssoAccessToken,
      email: staff.email,
      name: staff.name,
    })
    .from(sessions)
    .innerJoin(staff, eq(staff.id, sessions.staffId))
    .where(
      and(
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        or(isNotNull(sessions.ssoRefreshToken), isNotNull(sessions.ssoAccessToken)),
        or(
          isNull(sessions.ssoCheckedAt),
          lte(sessions.ssoCheckedAt, new Date(now.getTime() - intervalMs)),
        ),
      ),
    );
  const round: CheckRound = { checked: 0, ended: 0, unreachable: 0 };
  if (due.length === 0) return round;
  const settings = await readSsoSettings(db);
  for (const session of due) {
    round.checked += 1;
    const answer = settings?.enabled
      ? await checkWithProvider(settings, session)
      : ({ ok: false, reason: 'single sign-on is turned off' } as const);
    if (answer.ok === 'unknown') {
      round.unreachable += 1;
      continue;
    }
    if (answer.ok) {
      await db
        .update(sessions)
        .set({
          ssoRefreshToken: answer.refreshToken,
          ssoAccessToken: answer.accessToken,
          ssoCheckedAt: clock.now(),
        })
        .where(eq(sessions.id, session.id));
      continue;
    }
    round.ended += 1;
    await revokeSession(db, session.id, clock.now());
    endSessionStreams(options, [session.id]);
    await recordAudit(db, {
      at: clock.now(),
      actorType: 'SYSTEM',
      actorId: null,
      actorName: 'single sign-on check',
      action: 'sso.session_check',
      entityType: 'STAFF',
      entityId: session.staffId,
      summary: `Session of ${session.email} ended: ${answer.reason}`,
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
