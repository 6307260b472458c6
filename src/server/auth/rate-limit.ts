import { and, count, eq, gt, lt, max } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { loginFailures } from '../db/schema/console.ts';

/**
 * Sign-in throttling (README, "Security"): failed sign-ins, counted in the
 * database so every console server behind a load balancer agrees, earn
 * growing waits — 1 s, 2 s, 4 s… up to 15 minutes — before the next try
 * is even checked. Two counters, neither of them the account alone:
 *
 * - per account *and* address: someone guessing one member's password from
 *   their own address slows only themselves; the member, signing in from
 *   another address, is never kept out by a stranger's failures;
 * - per address, over all accounts: one address trying many accounts
 *   (credential stuffing) slows down after a generous allowance shared by
 *   everyone behind it.
 *
 * The price, stated: an attacker with many addresses gets a few free tries
 * per address on one account. Staff passwords are at least 12 characters.
 * Unknown emails count exactly like wrong passwords, so the throttle tells
 * nobody whether an account exists.
 */

/** Failures older than this no longer count. */
export const LOGIN_WINDOW_MS = 60 * 60_000;
/** Failures for one account from one address before waits begin. */
export const FREE_FAILURES_PER_ACCOUNT_ADDRESS = 3;
/** Failures from one address, over all accounts, before waits begin. */
export const FREE_FAILURES_PER_ADDRESS = 20;
const LONGEST_WAIT_MS = 15 * 60_000;

/** How long after its latest failure a counter lets the next try through. */
export function waitAfter(failures: number, free: number): number {
  if (failures <= free) return 0;
  return Math.min(LONGEST_WAIT_MS, 1000 * 2 ** Math.min(failures - free - 1, 30));
}

/** When the caller may try again, or null when they may now. */
export async function loginBlockedUntil(
  db: Database,
  email: string,
  ip: string,
  now: Date,
): Promise<Date | null> {
  const since = gt(loginFailures.at, new Date(now.getTime() - LOGIN_WINDOW_MS));
  const counted = (where: ReturnType<typeof and>) =>
    db
      .select({ failures: count(), latest: max(loginFailures.at) })
      .from(loginFailures)
      .where(where)
      .then(([row]) => row);
  const [pair, address] = await Promise.all([
    counted(and(eq(loginFailures.email, email), eq(loginFailures.ip, ip), since)),
    counted(and(eq(loginFailures.ip, ip), since)),
  ]);
  const until = (row: typeof pair, free: number) =>
    row?.latest ? new Date(row.latest).getTime() + waitAfter(row.failures, free) : 0;
  const blocked = Math.max(
    until(pair, FREE_FAILURES_PER_ACCOUNT_ADDRESS),
    until(address, FREE_FAILURES_PER_ADDRESS),
  );
  return blocked > now.getTime() ? new Date(blocked) : null;
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
    .where(lt(loginFailures.at, new Date(now.getTime() - LOGIN_WINDOW_MS)));
}

/**
 * A successful sign-in clears that account's failures from that address
 * only: a stranger's failures elsewhere keep slowing the stranger, and the
 * address's count over other accounts stays.
 */
export async function clearFailures(db: Database, email: string, ip: string): Promise<void> {
  await db
    .delete(loginFailures)
    .where(and(eq(loginFailures.email, email), eq(loginFailures.ip, ip)));
}

/** "12 seconds", "3 minutes": how long a refused caller should wait. */
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
