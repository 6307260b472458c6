import type { Context } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import type { CustodyContext } from './backend.ts';

/** The backend's view of the caller: the actor set by sign-in or an API-user token, and a member's scope. */
export function custodyContext(c: Context<AppEnv>): CustodyContext {
  const actor = c.get('actor');
  const scope = c.get('scope');
  return {
    requestId: c.get('requestId'),
    ...(actor ? { actor } : {}),
    ...(scope ? { scope } : {}),
  };
}

/** The sub-orgs the caller is held to, or null for all (unrestricted members and API users). */
export function allowedIds(ctx: CustodyContext): string[] | null {
  return ctx.scope?.subOrgIds ?? null;
}

/** Whether an item of `subOrgId` lies in the caller's scope (an organization-level one only for the unrestricted). */
export function inScope(ctx: CustodyContext, subOrgId: string | null | undefined): boolean {
  const ids = allowedIds(ctx);
  return !ids || (!!subOrgId && ids.includes(subOrgId));
}
