import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { StaffRole } from '#contract/auth.ts';
import { STAFF_ROLES } from '#contract/auth.ts';
import type { SsoGroupRole, UpdateSsoSettings } from '#contract/sso.ts';
import type { Database } from '../db/client.ts';
import { scimTokens, ssoGroupRoles, ssoSettings } from '../db/schema/console.ts';

/** The single sign-on settings, group mappings and SCIM tokens (console tables). */

export type SsoSettingsRow = typeof ssoSettings.$inferSelect;
export type ScimTokenRow = typeof scimTokens.$inferSelect;

const SETTINGS_ID = 'oidc';

export async function readSsoSettings(db: Database): Promise<SsoSettingsRow | undefined> {
  const [row] = await db.select().from(ssoSettings).where(eq(ssoSettings.id, SETTINGS_ID));
  return row;
}

export async function readGroupRoles(db: Database): Promise<SsoGroupRole[]> {
  const rows = await db.select().from(ssoGroupRoles).orderBy(asc(ssoGroupRoles.groupName));
  return rows.map((row) => ({
    groupName: row.groupName,
    role: row.role,
    subOrgIds: row.subOrgIds ?? null,
  }));
}

/**
 * Saves the whole configuration in one transaction. A settings row must have
 * a secret: the first save without one is refused by the caller.
 */
export async function saveSsoSettings(
  db: Database,
  input: UpdateSsoSettings,
  clientSecret: string,
  by: string,
  now: Date,
): Promise<void> {
  const values = {
    id: SETTINGS_ID,
    enabled: input.enabled,
    label: input.label,
    issuer: input.issuer,
    clientId: input.clientId,
    clientSecret,
    groupsClaim: input.groupsClaim,
    scopes: input.scopes,
    passwordSignIn: input.passwordSignIn,
    breakGlassEmail: input.breakGlassEmail,
    updatedAt: now,
    updatedBy: by,
  };
  await db.transaction(async (tx) => {
    await tx
      .insert(ssoSettings)
      .values(values)
      .onConflictDoUpdate({ target: ssoSettings.id, set: values });
    await tx.delete(ssoGroupRoles);
    if (input.groups.length > 0)
      await tx.insert(ssoGroupRoles).values(
        input.groups.map((g) => ({
          groupName: g.groupName,
          role: g.role,
          subOrgIds: g.subOrgIds ? [...new Set(g.subOrgIds)] : null,
        })),
      );
  });
}

export interface Grant {
  role: StaffRole;
  subOrgIds: string[] | null;
}

/**
 * What a member of these provider groups may do: the highest role any mapped
 * group grants, over the sub-organizations of every group granting that role
 * (all of them if one of those groups grants all). Null when no group is
 * mapped: such a person is not let in.
 */
export function grantOf(
  groups: readonly string[],
  mappings: readonly SsoGroupRole[],
): Grant | null {
  const mine = new Set(groups);
  const matched = mappings.filter((m) => mine.has(m.groupName));
  if (matched.length === 0) return null;
  const rank = (role: StaffRole) => STAFF_ROLES.indexOf(role);
  const top = matched.reduce(
    (best, m) => (rank(m.role) > rank(best) ? m.role : best),
    'viewer' as StaffRole,
  );
  const granting = matched.filter((m) => m.role === top);
  if (granting.some((m) => m.subOrgIds === null)) return { role: top, subOrgIds: null };
  const ids = [...new Set(granting.flatMap((m) => m.subOrgIds ?? []))].sort();
  return { role: top, subOrgIds: ids };
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function listScimTokens(db: Database): Promise<ScimTokenRow[]> {
  return db.select().from(scimTokens).orderBy(asc(scimTokens.createdAt), asc(scimTokens.id));
}

/** A new SCIM bearer token: `scim_` and 32 random bytes; only its SHA-256 is stored. */
export async function createScimToken(
  db: Database,
  name: string,
  by: string,
  now: Date,
): Promise<{ row: ScimTokenRow; token: string }> {
  const token = `scim_${randomBytes(32).toString('base64url')}`;
  const [row] = await db
    .insert(scimTokens)
    .values({ id: randomUUID(), tokenHash: hashToken(token), name, createdAt: now, createdBy: by })
    .returning();
  if (!row) throw new Error('createScimToken: nothing inserted');
  return { row, token };
}

export async function revokeScimToken(
  db: Database,
  id: string,
  now: Date,
): Promise<ScimTokenRow | undefined> {
  await db
    .update(scimTokens)
    .set({ revokedAt: now })
    .where(and(eq(scimTokens.id, id), isNull(scimTokens.revokedAt)));
  const [row] = await db.select().from(scimTokens).where(eq(scimTokens.id, id));
  return row;
}

/** The live token a bearer value names, its last use noted; undefined for anything else. */
export async function useScimToken(
  db: Database,
  token: string,
  now: Date,
): Promise<ScimTokenRow | undefined> {
  const [row] = await db
    .update(scimTokens)
    .set({ lastUsedAt: now })
    .where(and(eq(scimTokens.tokenHash, hashToken(token)), isNull(scimTokens.revokedAt)))
    .returning();
  return row;
}
