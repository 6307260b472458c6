import type { Logger } from 'pino';
import type { StaffRecord } from '../auth/staff.store.ts';
import type { CustodyActor, CustodyScope } from '../custody/backend.ts';

/** What every request carries through the Hono app. */
export interface AppEnv {
  Variables: {
    requestId: string;
    /** The request's child logger: every line it writes names the request id. */
    log: Logger;
    /** Who is calling: set by the API-client token check or the staff session check. */
    actor?: CustodyActor;
    /** The signed-in member, for session callers only. */
    staff?: StaffRecord;
    /** The session's CSRF token and id, for session callers only. */
    session?: { id: string; csrfToken: string };
    /** Sub-organizations a session caller may see; absent or null means all. */
    scope?: CustodyScope;
  };
}
