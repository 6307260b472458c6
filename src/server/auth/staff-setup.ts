import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNotNull } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { Database } from '../db/client.ts';
import { staff, staffProposals } from '../db/schema/console.ts';
import { hashPassword } from './password.ts';
import type { StaffRecord } from './staff.store.ts';

/**
 * A member made in the console chooses their own password. Creating them
 * answers a one-time set-up code, shown once to the creating admin and
 * stored only as SHA-256; with it the new member sets a password (here), then
 * signs in and enrols the second factor their role requires. Until then the
 * member's password is a random one nobody was told, so the creator never
 * knows a password that signs in.
 *
 * The creator could use the code first. What they then hold is an account
 * linked to their own (`createdBy`): its approval of their policy drafts and
 * staff changes is refused, and its decisions on their other items are
 * flagged. And an account with approve or admin rights exists only once
 * another admin approved its creation.
 */

/** How long a set-up code works once its member exists. */
export const SETUP_LIFETIME_MS = 72 * 3600_000;

export function setupHashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newSetupCode(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: setupHashOf(token) };
}

/** A password nobody knows, for a member until they choose theirs. */
export async function unknownPasswordHash(): Promise<string> {
  return hashPassword(randomBytes(32).toString('base64url'));
}

const invalid = (message: string) =>
  new ApiError(400, ERROR_CODES.setupInvalid, message, [{ field: 'token', message }]);

/**
 * Sets the member's password with their set-up code, which works once: the
 * code is cleared in the same conditional update that sets the password, so
 * two uses at once (on any server) set it once. Answers the member.
 */
export async function completeSetup(
  db: Database,
  token: string,
  password: string,
  now: Date,
): Promise<StaffRecord> {
  const hash = setupHashOf(token);
  const passwordHash = await hashPassword(password);
  const [row] = await db
    .update(staff)
    .set({ passwordHash, setupHash: null, setupExpiresAt: null })
    .where(
      and(
        eq(staff.setupHash, hash),
        isNotNull(staff.setupExpiresAt),
        gt(staff.setupExpiresAt, now),
        eq(staff.disabled, false),
      ),
    )
    .returning();
  if (row) return row;
  const [pending] = await db
    .select({ status: staffProposals.status })
    .from(staffProposals)
    .where(eq(staffProposals.setupHash, hash));
  if (pending?.status === 'PENDING')
    throw invalid(
      'This set-up code works once another admin approves the new member: ask them, then try again',
    );
  throw invalid(
    'This set-up code is not valid: it was used, has expired, or was declined. Ask an admin for a new member account',
  );
}
