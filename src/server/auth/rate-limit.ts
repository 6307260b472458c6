import { and, count, eq, gt, lt, lte, max, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { loginFailures } from '../db/schema/console.ts';

/**
 * Sign-in throttling (docs/security.md): failed sign-ins, counted in the
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
 *
 * Deciding and recording are one step (reserveLoginAttempt): an attempt is
 * written down as a failure *before* its password is checked, under a lock
 * on its address, and a success takes its row back. Deciding first and
 * recording after the 100 ms check let 40 guesses sent at once all be
 * checked; now the fifth of them already sees four failures.
 */

/** Failures older than this no longer count. */
export const LOGIN_WINDOW_MS = 60 * 60_000;
/** Failures for one account from one address before waits begin. */
export const FREE_FAILURES_PER_ACCOUNT_ADDRESS = 3;
/** Failures from one address, over all accounts, before waits begin. */
export const FREE_FAILURES_PER_ADDRESS = 20;
const LONGEST_WAIT_MS = 15 * 60_000;

/**
 * The first key of the advisory lock an address's sign-ins take (the second
 * is a hash of the address). Any constant works if every console server uses
 * the same; the startup lock (db/client.ts) is a one-key lock, another space.
 */
const SIGN_IN_LOCK = 0x6c6f6769; // "logi"

/** How long after its latest failure a counter lets the next try through. */
export function waitAfter(failures: number, free: number): number {
  if (failures <= free) return 0;
  return Math.min(LONGEST_WAIT_MS, 1000 * 2 ** Math.min(failures - free - 1, 30));
}

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/** When the caller may try again, or null when they may now, from the failures on record. */
async function blockedUntil(
  db: Database | Transaction,
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
  const pair = await counted(and(eq(loginFailures.email, email), eq(loginFailures.ip, ip), since));
  const address = await counted(and(eq(loginFailures.ip, ip), since));
  const until = (row: typeof pair, free: number) =>
    row?.latest ? new Date(row.latest).getTime() + waitAfter(row.failures, free) : 0;
  const blocked = Math.max(
    until(pair, FREE_FAILURES_PER_ACCOUNT_ADDRESS),
    until(address, FREE_FAILURES_PER_ADDRESS),
  );
  return blocked > now.getTime() ? new Date(blocked) : null;
}

export type LoginReservation = { attempt: number } | { blockedUntil: Date };

/**
 * The throttle's decision and its record in one step. Under a transaction
 * lock on the address (every console server on the database takes the same
 * one), the failures on record decide; an attempt let through is written
 * down as a failure at once, before its password is checked, so the next
 * attempt from that address — on this server or another — counts it. The
 * lock is held for two counts and an insert, never for the check itself.
 *
 * Answers the reserved row's id, to hand to `loginSucceeded`; a failed
 * check leaves the row as the failure it is.
 */
export async function reserveLoginAttempt(
  db: Database,
  email: string,
  ip: string,
  now: Date,
): Promise<LoginReservation> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SIGN_IN_LOCK}, hashtext(${ip}))`);
    const blocked = await blockedUntil(tx, email, ip, now);
    if (blocked) return { blockedUntil: blocked };
    const [row] = await tx
      .insert(loginFailures)
      .values({ email, ip, at: now })
      .returning({ id: loginFailures.id });
    if (!row) throw new Error('login_failures insert returned no row');
    return { attempt: row.id };
  });
}

/**
 * A failed check: its reserved row stays as the failure, dated now, so the
 * wait it earns counts from the answer (an attempt may wait its turn for a
 * check longer than the first wait). Rows past the window go.
 */
export async function loginFailed(db: Database, attempt: number, now: Date): Promise<void> {
  await db.update(loginFailures).set({ at: now }).where(eq(loginFailures.id, attempt));
  await db
    .delete(loginFailures)
    .where(lt(loginFailures.at, new Date(now.getTime() - LOGIN_WINDOW_MS)));
}

/**
 * A successful sign-in takes back its own reservation and clears that
 * account's failures from that address before it, only: a stranger's
 * failures elsewhere keep slowing the stranger, the address's count over
 * other accounts stays, and attempts reserved after it still count.
 */
export async function loginSucceeded(
  db: Database,
  email: string,
  ip: string,
  attempt: number,
): Promise<void> {
  await db
    .delete(loginFailures)
    .where(
      and(eq(loginFailures.email, email), eq(loginFailures.ip, ip), lte(loginFailures.id, attempt)),
    );
}

/** "12 seconds", "3 minutes": how long a refused caller should wait. */
export function describeWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** How often refused sign-ins under one key may each write an audit row. */
export const REFUSAL_AUDIT_INTERVAL_MS = 60_000;
const MAX_REFUSAL_KEYS = 10_000;

export interface RefusalRow {
  /** Refusals under this key since the last row that got no row of their own. */
  unwritten: number;
  /** When that last row was written. */
  since: Date | null;
}

/**
 * Refused sign-ins (throttled, or the server too busy to check them) cost
 * no password check, so one address can send a hundred a second: one audit
 * row each was an endless trail of attacker-chosen emails. Under each key
 * (an address; `busy` for the server's own load) at most one refusal a
 * minute writes a row, and that row counts the refusals since the last one
 * that wrote none. Checked failures keep a row each: the throttle bounds them.
 *
 * Kept in memory, per server: N servers write at most N rows a minute per
 * key, and a restart loses at most a minute's count. Past 10,000 keys the
 * key whose last row is oldest is forgotten, with its count.
 */
export class RefusalAudit {
  private readonly keys = new Map<string, { writtenAt: number; unwritten: number }>();

  /** A row to write for this refusal, or null when it is only counted. */
  note(key: string, now: Date): RefusalRow | null {
    const at = now.getTime();
    const last = this.keys.get(key);
    if (last && at - last.writtenAt < REFUSAL_AUDIT_INTERVAL_MS) {
      last.unwritten += 1;
      return null;
    }
    // Re-inserted, so the map's order is the order of the last rows written.
    this.keys.delete(key);
    this.keys.set(key, { writtenAt: at, unwritten: 0 });
    if (this.keys.size > MAX_REFUSAL_KEYS) {
      const oldest = this.keys.keys().next().value;
      if (oldest !== undefined) this.keys.delete(oldest);
    }
    return { unwritten: last?.unwritten ?? 0, since: last ? new Date(last.writtenAt) : null };
  }
}
