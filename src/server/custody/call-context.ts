import type { CustodyActor, CustodyScope } from '../http/app-env.ts';

// Who is calling and what they may see are properties of the request, set
// by the auth middleware: declared with the request's context.
export type { CustodyActor, CustodyScope };

export interface CustodyContext {
  actor?: CustodyActor;
  requestId?: string;
  /** Absent for the unrestricted: members of every sub-organization, API users held to none. */
  scope?: CustodyScope;
}

/**
 * Set by the scope layer (src/server/wiring/scoped-backend.ts) for a staff
 * member restricted to several sub-orgs: an IN filter the stores apply.
 */
export interface ScopeFilter {
  subOrgIds?: string[] | undefined;
  subOrgId?: string | undefined;
}
