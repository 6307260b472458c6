// Apart from sso.ts: the sign-in route's search reads these on every page's first load, and
// a module the entry imports brings all of itself (the settings' and SCIM schemas with it).

/** Why a single sign-on ended back on the sign-in page: `/login?sso=<reason>`. */
export const SSO_REFUSALS = [
  'unconfigured',
  'state',
  'provider',
  'unmapped',
  'disabled',
  'unverified',
  'password_only',
] as const;
