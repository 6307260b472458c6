import { z } from 'zod';

/**
 * The sub-organization scope the member is working in, held in the URL as
 * `?subOrg=` on every authenticated page (absent: all sub-organizations).
 * Routes under the authenticated layout retain it across navigation.
 */
export const scopeSearch = {
  subOrg: z.string().trim().min(1).max(128).optional().catch(undefined),
};
export const ScopeSearch = z.object(scopeSearch);
export type ScopeSearch = z.output<typeof ScopeSearch>;
