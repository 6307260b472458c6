import type { Logger } from 'pino';
import type { staff } from '../db/schema/console.ts';

/** Who is calling: a staff member's session or an API client's signed token. */
export interface CustodyActor {
  type: 'API_USER' | 'STAFF';
  id: string;
  /** The organization the actor acts in, when the caller already knows it. */
  orgId?: string;
}

/**
 * The sub-organizations a caller may act in. `subOrgIds: null` means all of
 * them; a list restricts every read to those sub-orgs (lists filter with IN,
 * gets of anything else answer 404).
 */
export interface CustodyScope {
  subOrgIds: string[] | null;
}

/** What every request carries through the Hono app. */
export interface AppEnv {
  Variables: {
    /** The server's own id of this request (http/request-log.ts): answers, logs, audit rows. */
    requestId: string;
    /** The caller's own X-Request-Id when well-formed: logged beside ours, never in its place. */
    callerRequestId?: string;
    /** The request's child logger: every line it writes names the request id. */
    log: Logger;
    /** Who is calling: set by the API-client token check or the staff session check. */
    actor?: CustodyActor;
    /** The signed-in member, for session callers only. */
    staff?: typeof staff.$inferSelect;
    /** The session's CSRF token and id, for session callers only. */
    session?: { id: string; csrfToken: string };
    /** Sub-organizations the caller (a member, or an API user held to some) may see; absent or null means all. */
    scope?: CustodyScope;
    /** Set once this request has its audit row, so a fallback never writes a second. */
    audited?: boolean;
    /** Origins a session's mutation may come from (http/public-origin.ts). */
    allowedOrigins?: ReadonlySet<string>;
    /** How large and how slow this request's body may be (http/body-limit.ts). */
    bodyLimit?: { maxBytes: number; timeoutMs: number };
  };
}
