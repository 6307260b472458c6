import * as z from 'zod/mini';

/**
 * The sub-organization scope the member is working in, held in the URL as
 * `?subOrg=` on every authenticated page (absent: all sub-organizations).
 * Routes under the authenticated layout retain it across navigation.
 */
export const scopeSearch = {
  subOrg: z.catch(
    z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(128))),
    undefined,
  ),
};
export const ScopeSearch = z.object(scopeSearch);
export type ScopeSearch = z.output<typeof ScopeSearch>;
