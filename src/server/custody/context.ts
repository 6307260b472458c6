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
