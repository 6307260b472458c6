import type { Endpoint } from '../endpoint.ts';
import * as staff from './staff.ts';

/**
 * Every declared endpoint, by capability: what the server's OpenAPI document
 * lists and what the route tests hold the app to. The SPA imports the
 * capability modules themselves, never this index, so its bundle holds only
 * the declarations its pages call.
 */
export const ENDPOINTS: readonly Endpoint[] = [...Object.values(staff)];
