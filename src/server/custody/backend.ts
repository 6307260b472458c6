/**
 * The custody API as the console server sees it. Two implementations: the
 * embedded sandbox (over the database) and upstream (signed HTTP to a real
 * custody API). Routes speak only to this interface. It only composes: each
 * capability declares its own port (`capabilities/<name>/port.ts`) and adds it
 * to this interface (a `declare module` beside the port), so this file, below
 * the capabilities, imports none of them.
 *
 * Failures a client should see are thrown as ApiError (src/contract/api-error.ts)
 * with the status and `{message, code}` to answer: NOT_FOUND for an unknown
 * id, INVALID_CURSOR for a cursor this backend did not issue, and so on.
 */

import type { ApiUserScope } from '#contract/api-users.ts';

export type { CustodyActor, CustodyContext, ScopeFilter } from './call-context.ts';

export interface CustodyBackend {
  readonly kind: 'sandbox' | 'upstream';
  /** Upstream only: the custody API's host, shown to staff so they know where they act. */
  readonly upstreamHost?: string;
  /**
   * GET /readyz: resolves when the backend answers a cheap signed read,
   * throws (ApiError, with the reason) otherwise. The sandbox has no such
   * call: its readiness is the database's.
   */
  checkReady?(): Promise<void>;
  /**
   * The API users API clients authenticate as. Only the sandbox has them: it
   * is the custody service; upstream mode accepts no API clients.
   */
  readonly apiClients?: ApiClientDirectory;
}

/** An API user as the request-token check needs it. */
interface ApiClientRecord {
  id: string;
  orgId: string;
  /** SPKI DER hex of the user's P-256 public key. */
  publicKey: string;
  /** The sub-organizations it is held to, like a member's scope; null for all. */
  subOrgIds: string[] | null;
  /** The networks (CIDRs) its requests may come from; null: anywhere. */
  allowedCidrs: string[] | null;
  /** After this its key is refused; null: never. */
  expiresAt: Date | null;
  /** What it may do: the route's permission must be among its scope's. */
  scope: ApiUserScope;
  /** Once set, its key is refused. */
  revokedAt: Date | null;
}

/** An API user as the console's API keys page manages it: never its private key. */
export interface ApiUserRow {
  id: string;
  orgId: string;
  name: string;
  apiKey: string;
  scope: ApiUserScope;
  subOrgIds: string[] | null;
  allowedCidrs: string[] | null;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  createdAt: Date;
  /** The console member who made it; null for the CLI or the seed. */
  createdBy: string | null;
  rotatedAt: Date | null;
  revokedAt: Date | null;
}

export interface NewApiUser {
  name: string;
  scope: ApiUserScope;
  subOrgIds: string[] | null;
  allowedCidrs: string[] | null;
  expiresAt: Date | null;
  createdBy: string | null;
  now: Date;
}

/** A key pair just made: the private half, returned this once, is stored nowhere. */
export interface IssuedApiUserKey {
  row: ApiUserRow;
  privateKeyHex: string;
}

export interface ApiClientDirectory {
  findByApiKey(apiKey: string): Promise<ApiClientRecord | undefined>;
  /** The organization's API users, newest first. */
  list(): Promise<ApiUserRow[]>;
  find(id: string): Promise<ApiUserRow | undefined>;
  /** 400 naming subOrgIds when one is not the organization's. */
  create(input: NewApiUser): Promise<IssuedApiUserKey>;
  /** A new Api-Key and key pair; the old ones are refused from now on. `expiresAt` undefined keeps it. */
  rotate(
    id: string,
    input: { now: Date; expiresAt?: Date | null },
  ): Promise<IssuedApiUserKey | undefined>;
  revoke(id: string, now: Date): Promise<ApiUserRow | undefined>;
  /** The networks its requests may come from from now on (null: anywhere); its key kept. */
  setNetworks(id: string, allowedCidrs: string[] | null): Promise<ApiUserRow | undefined>;
  /** Notes when a request of this API user last passed every check. */
  recordUse(apiUserId: string, now: Date): Promise<void>;
  /**
   * Records a token's jti until `expiresAt`, atomically; false when this API
   * user already recorded it (a replay), so two concurrent requests cannot
   * both pass. Another user's jti never counts: each user picks its own.
   */
  recordTokenId(jti: string, apiUserId: string, expiresAt: Date, now: Date): Promise<boolean>;
}
