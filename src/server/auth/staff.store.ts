import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { StaffMember, StaffRole } from '#contract/auth.ts';
import { ERROR_CODES } from '#contract/common.ts';
import type { Database } from '../db/client.ts';
import { staff } from '../db/schema/console.ts';
import { ApiError } from '#contract/api-error.ts';
import { hashPassword } from './password.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';

/** Staff members in the console database: created by the CLI, by admins, or (sandbox) the demo seed. */

export type StaffRecord = typeof staff.$inferSelect;

export function toWireStaff(row: StaffRecord): StaffMember {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    subOrgIds: row.subOrgIds ?? null,
    disabled: row.disabled,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy ?? null,
  };
}

export interface NewStaff {
  email: string;
  name: string;
  role: StaffRole;
  subOrgIds?: string[] | null | undefined;
  password: string;
}

/** An empty list would lock a member out of everything; treat it as a mistake, not "none". */
export function normalizeSubOrgs(ids: string[] | null | undefined): string[] | null {
  if (!ids) return null;
  const unique = [...new Set(ids)];
  if (unique.length === 0)
    throw new ApiError(
      400,
      ERROR_CODES.validation,
      'subOrgIds must name at least one sub-organization, or be null for all',
      [{ field: 'subOrgIds', message: 'must not be empty' }],
    );
  return unique;
}

export async function createStaff(
  db: Database,
  input: NewStaff,
  /**
   * `createdBy`: the admin creating the member through the console (none for
   * the CLI and seed); `setup`: the set-up code's hash and expiry of such a
   * member, whose password is then chosen by them (auth/staff-setup.ts).
   */
  options: {
    now: Date;
    passwordHash?: string;
    createdBy?: string | null;
    setup?: { hash: string; expiresAt: Date };
  },
): Promise<StaffRecord> {
  const values = {
    id: randomUUID(),
    email: input.email.trim().toLowerCase(),
    name: input.name.trim(),
    role: input.role,
    subOrgIds: normalizeSubOrgs(input.subOrgIds),
    passwordHash: options.passwordHash ?? (await hashPassword(input.password)),
    createdAt: options.now,
    createdBy: options.createdBy ?? null,
    setupHash: options.setup?.hash ?? null,
    setupExpiresAt: options.setup?.expiresAt ?? null,
  };
  try {
    const [row] = await db.insert(staff).values(values).returning();
    if (!row) throw new Error('createStaff: nothing inserted');
    return row;
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError(
        409,
        ERROR_CODES.conflict,
        `A staff member with email ${values.email} already exists`,
        [{ field: 'email', message: 'is already in use' }],
      );
    throw error;
  }
}

export async function findStaffByEmail(
  db: Database,
  email: string,
): Promise<StaffRecord | undefined> {
  const [row] = await db
    .select()
    .from(staff)
    .where(eq(staff.email, email.trim().toLowerCase()))
    .limit(1);
  return row;
}

export async function getStaff(db: Database, id: string): Promise<StaffRecord | undefined> {
  const [row] = await db.select().from(staff).where(eq(staff.id, id)).limit(1);
  return row;
}

/** Staff lists are short (a treasury team), so one page holds them all. */
export async function listStaff(db: Database): Promise<StaffRecord[]> {
  return db.select().from(staff).orderBy(asc(staff.createdAt), asc(staff.id));
}

export interface StaffChanges {
  name?: string | undefined;
  role?: StaffRole | undefined;
  subOrgIds?: string[] | null | undefined;
  disabled?: boolean | undefined;
}

/** Whether a change of role or scope moves what the member may do: their sessions end. */
export function changesAccess(before: StaffRecord, changes: StaffChanges): boolean {
  const roleChanged = changes.role !== undefined && changes.role !== before.role;
  const scopeChanged =
    changes.subOrgIds !== undefined &&
    JSON.stringify(normalizeSubOrgs(changes.subOrgIds)) !==
      JSON.stringify(before.subOrgIds ?? null);
  return roleChanged || scopeChanged;
}

export async function updateStaff(
  db: Database,
  id: string,
  changes: StaffChanges,
): Promise<StaffRecord | undefined> {
  const set: Partial<typeof staff.$inferInsert> = {};
  if (changes.name !== undefined) set.name = changes.name.trim();
  if (changes.role !== undefined) set.role = changes.role;
  if (changes.subOrgIds !== undefined) set.subOrgIds = normalizeSubOrgs(changes.subOrgIds);
  if (changes.disabled !== undefined) set.disabled = changes.disabled;
  if (Object.keys(set).length === 0) return getStaff(db, id);
  const [row] = await db.update(staff).set(set).where(eq(staff.id, id)).returning();
  return row;
}

/** A new password hash (auth/credentials.ts ends the member's other sessions with it). */
export async function setPasswordHash(
  db: Database,
  id: string,
  passwordHash: string,
): Promise<boolean> {
  const [row] = await db
    .update(staff)
    .set({ passwordHash })
    .where(eq(staff.id, id))
    .returning({ id: staff.id });
  return row !== undefined;
}
