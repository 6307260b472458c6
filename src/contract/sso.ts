import * as z from 'zod/mini';
import { StaffRole } from './auth.ts';
import { SSO_REFUSALS } from './sso-refusals.ts';

/**
 * Single sign-on with the company's OpenID provider, and SCIM provisioning
 * (server/auth/sso/): what an admin configures, and what the sign-in page
 * reads. The client secret goes in and never comes back out.
 */

export const PASSWORD_SIGN_IN = ['everyone', 'break_glass'] as const;
export const PasswordSignIn = z.enum(PASSWORD_SIGN_IN);
export type PasswordSignIn = z.infer<typeof PasswordSignIn>;

export { SSO_REFUSALS };
export const SsoRefusal = z.enum(SSO_REFUSALS);
export type SsoRefusal = z.infer<typeof SsoRefusal>;

const text = (field: string, max: number) =>
  z
    .string()
    .check(
      z.trim(),
      z.minLength(1, `${field} is required`),
      z.maxLength(max, `${field} must be at most ${max} characters`),
    );

export const SsoGroupRole = z.strictObject({
  groupName: text('groupName', 200),
  role: StaffRole,
  /** Null: every sub-organization. */
  subOrgIds: z.nullable(
    z
      .array(z.string().check(z.minLength(1, 'subOrgIds must not hold an empty id')))
      .check(z.minLength(1, 'subOrgIds must name at least one sub-organization, or be null')),
  ),
});
export type SsoGroupRole = z.infer<typeof SsoGroupRole>;

export const ScimTokenInfo = z.looseObject({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
  revokedAt: z.nullable(z.string()),
});
export type ScimTokenInfo = z.infer<typeof ScimTokenInfo>;

/**
 * A saved change that widens who may sign in or what they may do, waiting for
 * another admin of every sub-organization to approve it on its held item.
 */
export const SsoPendingChange = z.looseObject({
  /** The held item's id: its page is `/approvals/held/{id}`. */
  id: z.string(),
  proposedBy: z.looseObject({ id: z.string(), name: z.string() }),
  proposedAt: z.string(),
  /** Why it needs another admin, one sentence a reason. */
  widens: z.array(z.string()),
});
export type SsoPendingChange = z.infer<typeof SsoPendingChange>;

/** GET /api/console/sso/: the settings as stored, but never the secret. */
export const SsoSettings = z.looseObject({
  configured: z.boolean(),
  enabled: z.boolean(),
  label: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  clientSecretSet: z.boolean(),
  groupsClaim: z.string(),
  scopes: z.string(),
  passwordSignIn: PasswordSignIn,
  breakGlassEmail: z.nullable(z.string()),
  groups: z.array(SsoGroupRole),
  /** What to register at the provider as the redirect (callback) URI. */
  redirectUri: z.string(),
  /** Where SCIM clients send their requests. */
  scimBaseUrl: z.string(),
  scimTokens: z.array(ScimTokenInfo),
  updatedAt: z.nullable(z.string()),
  /** The change waiting for another admin, if any: the settings above are still in force. */
  pendingChange: z.optional(z.nullable(SsoPendingChange)),
});
export type SsoSettings = z.infer<typeof SsoSettings>;

/** PUT /api/console/sso/: the whole configuration; `clientSecret` left out keeps the stored one. */
export const UpdateSsoSettings = z
  .strictObject({
    enabled: z.boolean(),
    label: text('label', 60),
    issuer: text('issuer', 500).check(
      z.refine((value) => /^https?:\/\/[^\s]+$/.test(value), 'issuer must be an http(s) URL'),
    ),
    clientId: text('clientId', 500),
    clientSecret: z.optional(text('clientSecret', 2000)),
    groupsClaim: z._default(text('groupsClaim', 100), 'groups'),
    scopes: z._default(
      text('scopes', 500).check(
        z.refine((value) => value.split(/\s+/).includes('openid'), 'scopes must include openid'),
      ),
      'openid email profile offline_access',
    ),
    passwordSignIn: PasswordSignIn,
    breakGlassEmail: z.nullable(
      z
        .string()
        .check(
          z.trim(),
          z.toLowerCase(),
          z.regex(z.regexes.email, 'breakGlassEmail must be an email address'),
        ),
    ),
    groups: z.array(SsoGroupRole).check(z.maxLength(200, 'groups must hold at most 200 mappings')),
  })
  .check(
    z.refine((body) => body.passwordSignIn !== 'break_glass' || body.breakGlassEmail !== null, {
      message: 'breakGlassEmail is required when passwords are turned off for everyone else',
      path: ['breakGlassEmail'],
    }),
    z.refine((body) => new Set(body.groups.map((g) => g.groupName)).size === body.groups.length, {
      message: 'groups must name each group once',
      path: ['groups'],
    }),
  );
export type UpdateSsoSettings = z.infer<typeof UpdateSsoSettings>;

/** GET /auth/sso: what the sign-in page offers. */
export const SsoSignInOptions = z.looseObject({
  /** Null: no single sign-on is set up. */
  sso: z.nullable(z.looseObject({ label: z.string(), startPath: z.string() })),
  passwordSignIn: PasswordSignIn,
});
export type SsoSignInOptions = z.infer<typeof SsoSignInOptions>;

export const CreateScimToken = z.strictObject({ name: text('name', 100) });
/** The token itself, answered this once; only its SHA-256 is kept. */
export const ScimTokenCreated = z.looseObject({
  id: z.string(),
  name: z.string(),
  token: z.string(),
});
