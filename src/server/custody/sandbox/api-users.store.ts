import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, lt } from 'drizzle-orm';
import { ApiError } from '#contract/api-error.ts';
import type { ApiUserScope } from '#contract/api-users.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { generateApiKey, generateApiUserKeyPair } from '../../protocol/api-token.ts';
import type { Database } from '../../db/client.ts';
import { apiUsers, organizations, subOrgs, usedTokenIds } from '../../db/schema/sandbox.ts';
import type { ApiClientDirectory, ApiUserRow, NewApiUser } from '../backend.ts';

/**
 * The sandbox's API users: what `npm run cli -- api-users create` and the
 * console's API keys page make, and what a request carrying `Api-Key` is
 * checked against. The server keeps only the public key; the private key is
 * shown once, to whoever created (or rotated) the user, and never stored.
 */

export interface CreatedApiUser {
  id: string;
  orgId: string;
  name: string;
  apiKey: string;
  /** The sub-organizations it is held to; null for the whole organization. */
  subOrgIds: string[] | null;
  /** PKCS#8 DER hex: what the provider's SDKs take as the private key. */
  privateKeyHex: string;
}

export async function createApiUser(
  db: Database,
  input: {
    orgId: string;
    name: string;
    now: Date;
    subOrgIds?: string[] | null;
    allowedCidrs?: string[] | null;
    expiresAt?: Date | null;
    /** Users made before scopes existed could do everything: the default keeps that. */
    scope?: ApiUserScope;
    createdBy?: string | null;
  },
): Promise<CreatedApiUser & { row: ApiUserRow }> {
  const { privateKeyHex, publicKeyHex } = generateApiUserKeyPair();
  const [row] = await db
    .insert(apiUsers)
    .values({
      id: randomUUID(),
      orgId: input.orgId,
      name: input.name,
      apiKey: generateApiKey(),
      publicKey: publicKeyHex,
      subOrgIds: input.subOrgIds ?? null,
      allowedCidrs: input.allowedCidrs ?? null,
      expiresAt: input.expiresAt ?? null,
      scope: input.scope ?? 'create_and_approve',
      createdBy: input.createdBy ?? null,
      createdAt: input.now,
    })
    .returning();
  if (!row) throw new Error('createApiUser: nothing inserted');
  return {
    id: row.id,
    orgId: row.orgId,
    name: row.name,
    apiKey: row.apiKey,
    subOrgIds: row.subOrgIds ?? null,
    privateKeyHex,
    row: toRow(row),
  };
}

function toRow(row: typeof apiUsers.$inferSelect): ApiUserRow {
  return {
    id: row.id,
    orgId: row.orgId,
    name: row.name,
    apiKey: row.apiKey,
    scope: row.scope,
    subOrgIds: row.subOrgIds ?? null,
    allowedCidrs: row.allowedCidrs ?? null,
    expiresAt: row.expiresAt,
    lastUsedAt: row.lastUsedAt,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    rotatedAt: row.rotatedAt,
    revokedAt: row.revokedAt,
  };
}

/** 400 naming subOrgIds when one of them is not a sub-organization of the organization. */
export async function checkSubOrgsOf(
  db: Database,
  orgId: string,
  subOrgIds: readonly string[] | null | undefined,
): Promise<void> {
  if (!subOrgIds || subOrgIds.length === 0) return;
  const found = await db
    .select({ id: subOrgs.id })
    .from(subOrgs)
    .where(and(eq(subOrgs.orgId, orgId), inArray(subOrgs.id, [...subOrgIds])));
  const known = new Set(found.map((r) => r.id));
  const unknown = subOrgIds.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new ApiError(
      400,
      ERROR_CODES.validation,
      `subOrgIds must name sub-organizations of the organization; ${unknown.join(', ')} is not one`,
      [{ field: 'subOrgIds', message: `${unknown.join(', ')} is not a sub-organization` }],
    );
}

/** A new Api-Key and key pair on the same user (its id, history and vault signing kept). */
export async function rotateApiUserKey(
  db: Database,
  id: string,
  input: { now: Date; expiresAt?: Date | null },
): Promise<{ row: ApiUserRow; privateKeyHex: string } | undefined> {
  const { privateKeyHex, publicKeyHex } = generateApiUserKeyPair();
  const [row] = await db
    .update(apiUsers)
    .set({
      apiKey: generateApiKey(),
      publicKey: publicKeyHex,
      rotatedAt: input.now,
      ...(input.expiresAt !== undefined ? { expiresAt: input.expiresAt } : {}),
    })
    .where(eq(apiUsers.id, id))
    .returning();
  return row ? { row: toRow(row), privateKeyHex } : undefined;
}

/** Revoked once: a second call leaves the first time in place. */
export async function revokeApiUser(
  db: Database,
  id: string,
  now: Date,
): Promise<ApiUserRow | undefined> {
  const [row] = await db
    .update(apiUsers)
    .set({ revokedAt: now })
    .where(eq(apiUsers.id, id))
    .returning();
  return row ? toRow(row) : undefined;
}

/** Read with each request's key, so the next request is judged by these networks. */
export async function setApiUserNetworks(
  db: Database,
  id: string,
  allowedCidrs: string[] | null,
): Promise<ApiUserRow | undefined> {
  const [row] = await db
    .update(apiUsers)
    .set({ allowedCidrs })
    .where(eq(apiUsers.id, id))
    .returning();
  return row ? toRow(row) : undefined;
}

/** The organization a caller without one of its own acts in: the oldest (on a seeded sandbox, the only one). */
export async function defaultOrganizationId(db: Database): Promise<string | undefined> {
  const [org] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .orderBy(asc(organizations.createdAt), asc(organizations.id))
    .limit(1);
  return org?.id;
}

// Used token ids only matter until their token expires; deleting the expired
// ones now and then keeps the table the size of a few minutes' traffic.
const PURGE_INTERVAL_MS = 60_000;

export function createApiClientDirectory(db: Database): ApiClientDirectory {
  let lastPurge = 0;
  return {
    async findByApiKey(apiKey) {
      const [row] = await db
        .select({
          id: apiUsers.id,
          orgId: apiUsers.orgId,
          publicKey: apiUsers.publicKey,
          subOrgIds: apiUsers.subOrgIds,
          allowedCidrs: apiUsers.allowedCidrs,
          expiresAt: apiUsers.expiresAt,
          scope: apiUsers.scope,
          revokedAt: apiUsers.revokedAt,
        })
        .from(apiUsers)
        .where(eq(apiUsers.apiKey, apiKey))
        .limit(1);
      return row;
    },
    async list() {
      const orgId = await defaultOrganizationId(db);
      if (!orgId) return [];
      const rows = await db
        .select()
        .from(apiUsers)
        .where(eq(apiUsers.orgId, orgId))
        .orderBy(desc(apiUsers.createdAt), desc(apiUsers.id));
      return rows.map(toRow);
    },
    async find(id) {
      const orgId = await defaultOrganizationId(db);
      if (!orgId) return undefined;
      const [row] = await db
        .select()
        .from(apiUsers)
        .where(and(eq(apiUsers.id, id), eq(apiUsers.orgId, orgId)))
        .limit(1);
      return row ? toRow(row) : undefined;
    },
    async create(input: NewApiUser) {
      const orgId = await defaultOrganizationId(db);
      if (!orgId) throw new Error('The sandbox has no organization yet');
      await checkSubOrgsOf(db, orgId, input.subOrgIds);
      const made = await createApiUser(db, { ...input, orgId });
      return { row: made.row, privateKeyHex: made.privateKeyHex };
    },
    rotate: (id, input) => rotateApiUserKey(db, id, input),
    revoke: (id, now) => revokeApiUser(db, id, now),
    setNetworks: (id, allowedCidrs) => setApiUserNetworks(db, id, allowedCidrs),
    async recordUse(apiUserId, now) {
      await db.update(apiUsers).set({ lastUsedAt: now }).where(eq(apiUsers.id, apiUserId));
    },
    async recordTokenId(jti, apiUserId, expiresAt, now) {
      if (now.getTime() - lastPurge >= PURGE_INTERVAL_MS) {
        lastPurge = now.getTime();
        await db.delete(usedTokenIds).where(lt(usedTokenIds.expiresAt, now));
      }
      // One statement decides: of two concurrent requests with one user's jti,
      // the primary key (API user, jti) lets exactly one insert, on PGlite and
      // PostgreSQL alike; another user's token with the same jti is its own.
      const inserted = await db
        .insert(usedTokenIds)
        .values({ jti, apiUserId, expiresAt })
        .onConflictDoNothing()
        .returning({ jti: usedTokenIds.jti });
      return inserted.length === 1;
    },
  };
}
