import type { Context } from 'hono';
import type { AppEnv } from '../../http/app-env.ts';
import type { CustodyContext } from '../backend.ts';

/** The backend's view of the caller. Sign-in and API-user tokens will add the actor here. */
export function custodyContext(c: Context<AppEnv>): CustodyContext {
  return { requestId: c.get('requestId') };
}
