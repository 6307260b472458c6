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
}

export interface ApiClientDirectory {
  findByApiKey(apiKey: string): Promise<ApiClientRecord | undefined>;
  /** Notes when a request of this API user last passed every check. */
  recordUse(apiUserId: string, now: Date): Promise<void>;
  /**
   * Records a token's jti until `expiresAt`, atomically; false when this API
   * user already recorded it (a replay), so two concurrent requests cannot
   * both pass. Another user's jti never counts: each user picks its own.
   */
  recordTokenId(jti: string, apiUserId: string, expiresAt: Date, now: Date): Promise<boolean>;
}
