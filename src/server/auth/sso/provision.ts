import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Clock } from '../../clock.ts';
import type { Database } from '../../db/client.ts';
import { staff } from '../../db/schema/console.ts';
import { endSessionStreams, type AuthOptions } from '../session-auth.ts';
import { revokeStaffSessions } from '../session.store.ts';
import {
  changesAccess,
  createStaff,
  getStaff,
  updateStaff,
  type StaffRecord,
} from '../staff.store.ts';
import type { Grant } from '../sso.store.ts';

/**
 * Members the company's provider brings (OpenID sign-in, SCIM): made with a
 * password nobody knows (they sign in through the provider), and held to the
 * role and sub-organizations their groups grant. A change of role or scope
 * ends their sessions, as it does when an admin makes it.
 */

export async function createProvisioned(
  db: Database,
  clock: Clock,
  input: {
    email: string;
    name: string;
    grant: Grant;
    by: 'oidc' | 'scim';
    idpSubject?: string | null;
    scimExternalId?: string | null;
  },
): Promise<StaffRecord> {
  const member = await createStaff(
    db,
    {
      email: input.email,
      name: input.name,
      role: input.grant.role,
      subOrgIds: input.grant.subOrgIds,
      password: randomBytes(24).toString('base64url'),
    },
    { now: clock.now() },
  );
  const [row] = await db
    .update(staff)
    .set({
      provisionedBy: input.by,
      idpSubject: input.idpSubject ?? null,
      scimExternalId: input.scimExternalId ?? null,
    })
    .where(eq(staff.id, member.id))
    .returning();
  return row ?? member;
}

/** Holds the member to `grant` (and `name`), ending their sessions if their access moved. */
export async function applyGrant(
  options: AuthOptions,
  member: StaffRecord,
  grant: Grant,
  name?: string | null,
): Promise<{ member: StaffRecord; accessChanged: boolean }> {
  const changes = {
    role: grant.role,
    subOrgIds: grant.subOrgIds,
    ...(name && name !== member.name ? { name } : {}),
  };
  const accessChanged = changesAccess(member, changes);
  const updated = (await updateStaff(options.db, member.id, changes)) ?? member;
  if (accessChanged)
    endSessionStreams(
      options,
      await revokeStaffSessions(options.db, member.id, options.clock.now()),
    );
  return { member: updated, accessChanged };
}

export async function linkSubject(
  db: Database,
  member: StaffRecord,
  idpSubject: string,
): Promise<StaffRecord> {
  await db.update(staff).set({ idpSubject }).where(eq(staff.id, member.id));
  return (await getStaff(db, member.id)) ?? member;
}

export async function findBySubject(
  db: Database,
  idpSubject: string,
): Promise<StaffRecord | undefined> {
  const [row] = await db.select().from(staff).where(eq(staff.idpSubject, idpSubject)).limit(1);
  return row;
}
