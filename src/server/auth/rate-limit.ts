import { and, desc, eq, gt, lt } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { loginFailures } from '../db/schema/console.ts';

/**
 * Failed sign-ins per account and per address over a sliding window, in the
 * database so that every console server behind a load balancer agrees.
 * An account limit alone lets one address try many accounts; an address
 * limit alone lets a botnet try one account; so both.
 */

export const LOGIN_WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

/** When the caller may try again, or null when they may now. */
export async function loginBlockedUntil(
  db: Database,
  email: string,
  ip: string,
  now: Date,
): Promise<Date | null> {
  const since = new Date(now.getTime() - LOGIN_WINDOW_MS);
  const blockedUntil = async (
    column: typeof loginFailures.email | typeof loginFailures.ip,
    value: string,
    max: number,
  ) => {
    // The max-th most recent failure in the window: once it leaves the window, a try is allowed again.
    const rows = await db
      .select({ at: loginFailures.at })
      .from(loginFailures)
      .where(and(eq(column, value), gt(loginFailures.at, since)))
      .orderBy(desc(loginFailures.at))
      .limit(max);
    const oldest = rows.length >= max ? rows[max - 1] : undefined;
    return oldest ? new Date(oldest.at.getTime() + LOGIN_WINDOW_MS) : null;
  };
  const [account, address] = await Promise.all([
    blockedUntil(loginFailures.email, email, MAX_FAILURES_PER_ACCOUNT),
    blockedUntil(loginFailures.ip, ip, MAX_FAILURES_PER_ADDRESS),
  ]);
  if (!account) return address;
  if (!address) return account;
  return account > address ? account : address;
}

export async function recordLoginFailure(
  db: Database,
  email: string,
  ip: string,
  now: Date,
): Promise<void> {
  await db.insert(loginFailures).values({ email, ip, at: now });
  // Keep the table small: rows older than the window never count again.
  await db
    .delete(loginFailures)
    .where(lt(loginFailures.at, new Date(now.getTime() - 2 * LOGIN_WINDOW_MS)));
}

/** A successful sign-in clears the account's failures (not the address's: others may share it). */
export async function clearAccountFailures(db: Database, email: string): Promise<void> {
  await db.delete(loginFailures).where(eq(loginFailures.email, email));
}
