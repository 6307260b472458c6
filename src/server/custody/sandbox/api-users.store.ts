import { randomUUID } from 'node:crypto';
import { asc, eq, lt } from 'drizzle-orm';
import { generateApiKey, generateApiUserKeyPair } from '../../protocol/api-token.ts';
import type { Database } from '../../db/client.ts';
import { apiUsers, organizations, usedTokenIds } from '../../db/schema/sandbox.ts';
import type { ApiClientDirectory } from '../backend.ts';

/**
 * The sandbox's API users: what `npm run cli -- api-users create` makes and
 * what a request carrying `Api-Key` is checked against. The server keeps
 * only the public key; the private key is shown once, to whoever created
 * the user, and never stored.
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
  },
): Promise<CreatedApiUser> {
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
  };
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
        })
        .from(apiUsers)
        .where(eq(apiUsers.apiKey, apiKey))
        .limit(1);
      return row;
    },
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
