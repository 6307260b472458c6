import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { ssoRefreshTokens } from '../../db/schema/console.ts';

/**
 * Each member's latest refresh token from the provider, per provider
 * configuration (issuer and client id). Per member, not per session: Google
 * (and others) issue one at the first consent only, so later sessions have
 * none of their own, and a token the provider rotates on use is good only as
 * last given, so copies held by several sessions would go stale. Stays on the
 * server: never answered, never logged.
 */

export interface ProviderKey {
  staffId: string;
  issuer: string;
  clientId: string;
}

function keyed(key: ProviderKey) {
  return and(
    eq(ssoRefreshTokens.staffId, key.staffId),
    eq(ssoRefreshTokens.issuer, key.issuer),
    eq(ssoRefreshTokens.clientId, key.clientId),
  );
}

/** A sign-in's refresh token replaces the member's earlier one: it is the newest grant. */
export async function keepRefreshToken(
  db: Database,
  key: ProviderKey,
  refreshToken: string,
  now: Date,
): Promise<void> {
  await db
    .insert(ssoRefreshTokens)
    .values({ ...key, refreshToken, updatedAt: now })
    .onConflictDoUpdate({
      target: [ssoRefreshTokens.staffId, ssoRefreshTokens.issuer, ssoRefreshTokens.clientId],
      set: { refreshToken, updatedAt: now },
    });
}

export async function memberRefreshToken(db: Database, key: ProviderKey): Promise<string | null> {
  const [row] = await db
    .select({ refreshToken: ssoRefreshTokens.refreshToken })
    .from(ssoRefreshTokens)
    .where(keyed(key))
    .limit(1);
  return row?.refreshToken ?? null;
}

/**
 * After a check: the token the provider gave back (rotated or the same), or
 * none once it refused the one presented. Only if the member's token is still
 * the one presented: a sign-in that brought a newer one meanwhile keeps it.
 */
export async function settleRefreshToken(
  db: Database,
  key: ProviderKey,
  presented: string,
  next: string | null,
  now: Date,
): Promise<void> {
  const where = and(keyed(key), eq(ssoRefreshTokens.refreshToken, presented));
  if (next === null) await db.delete(ssoRefreshTokens).where(where);
  else if (next !== presented)
    await db.update(ssoRefreshTokens).set({ refreshToken: next, updatedAt: now }).where(where);
}
