import * as z from 'zod/mini';
import type { Permission } from './auth.ts';
import { IsoTimestamp, listEnvelope } from './common.ts';
import { displayTextProblem } from './display-text.ts';

/**
 * API users as admins manage them in the console (sandbox only): programs
 * that call the custody API with a key pair, held to a scope, to
 * sub-organizations, to networks and to an expiry. The private key goes out
 * once, in the create or rotate answer, and is never stored.
 */

/**
 * What an API user may do, in the role vocabulary (`auth.ts`): read only;
 * create (transactions, contacts, bank accounts, as an initiator does); or
 * create and approve, which is everything the custody API offers (vaults,
 * sub-organizations, approval decisions, vault signing), as API users could
 * before they had a scope.
 */
export const API_USER_SCOPES = ['read_only', 'create', 'create_and_approve'] as const;
export const ApiUserScope = z.enum(API_USER_SCOPES);
export type ApiUserScope = z.infer<typeof ApiUserScope>;

export const API_USER_SCOPE_LABELS: Record<ApiUserScope, string> = {
  read_only: 'Read only',
  create: 'Create',
  create_and_approve: 'Create and approve',
};

const SCOPE_PERMISSIONS: Record<ApiUserScope, readonly Permission[]> = {
  read_only: ['read'],
  create: ['read', 'initiate'],
  create_and_approve: ['read', 'initiate', 'approve', 'reveal', 'admin'],
};

export function apiUserScopeAllows(scope: ApiUserScope, permission: Permission): boolean {
  return SCOPE_PERMISSIONS[scope].includes(permission);
}

const NETWORK_PATTERNS = [z.regexes.cidrv4, z.regexes.cidrv6, z.regexes.ipv4, z.regexes.ipv6];

/** An IPv4 or IPv6 network (a bare address is that one address). */
export const AllowedNetwork = z.string().check(
  z.trim(),
  z.refine(
    (value) => NETWORK_PATTERNS.some((pattern) => pattern.test(value)),
    'must be an IPv4 or IPv6 network such as 203.0.113.0/24 or 2001:db8::/32',
  ),
);

const apiUserName = z.string().check(
  z.trim(),
  z.minLength(1, 'name is required'),
  z.maxLength(120, 'name must be at most 120 characters'),
  z.superRefine((value, ctx) => {
    const problem = displayTextProblem('name', value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
);

const subOrgIds = z.nullable(
  z
    .array(z.string().check(z.minLength(1, 'must not be empty')))
    .check(z.minLength(1, 'must name at least one sub-organization, or be null for all')),
);

const allowedCidrs = z.nullable(
  z
    .array(AllowedNetwork)
    .check(
      z.minLength(1, 'must name at least one network, or be null for anywhere'),
      z.maxLength(50, 'must name at most 50 networks'),
    ),
);

/** POST /api/console/api-users/: expiry, when given, must lie in the future (the server's clock judges). */
export const CreateApiUser = z.strictObject({
  name: apiUserName,
  scope: ApiUserScope,
  /** Null: the whole organization. */
  subOrgIds,
  /** Null: requests from anywhere. */
  allowedCidrs,
  /** Null: never expires. */
  expiresAt: z.nullable(IsoTimestamp),
});
export type CreateApiUser = z.infer<typeof CreateApiUser>;

/**
 * PUT /api/console/api-users/:apiUserId/networks/: the networks its requests
 * may come from from now on, null for anywhere. The key is kept: a client
 * whose address moved goes on with the key it has.
 */
export const SetApiUserNetworks = z.strictObject({ allowedCidrs });
export type SetApiUserNetworks = z.infer<typeof SetApiUserNetworks>;

/** POST /api/console/api-users/:apiUserId/rotate/: a new expiry, or the current one kept. */
export const RotateApiUser = z.strictObject({
  expiresAt: z.optional(z.nullable(IsoTimestamp)),
});
export type RotateApiUser = z.infer<typeof RotateApiUser>;

export const API_USER_STATUSES = ['active', 'expired', 'revoked'] as const;

export const ApiUserInfo = z.looseObject({
  id: z.string(),
  name: z.string(),
  /** The Api-Key header's value: an identifier, not a secret on its own. */
  apiKey: z.string(),
  scope: ApiUserScope,
  subOrgIds: z.nullable(z.array(z.string())),
  allowedCidrs: z.nullable(z.array(z.string())),
  expiresAt: z.nullable(z.string()),
  createdAt: z.string(),
  /** The member who made it in the console; null when the CLI or the seed did. */
  createdBy: z.nullable(z.object({ id: z.string(), name: z.string() })),
  lastUsedAt: z.nullable(z.string()),
  rotatedAt: z.nullable(z.string()),
  revokedAt: z.nullable(z.string()),
  status: z.enum(API_USER_STATUSES),
});
export type ApiUserInfo = z.infer<typeof ApiUserInfo>;

export const ApiUserList = listEnvelope(ApiUserInfo);
export type ApiUserList = z.infer<typeof ApiUserList>;

/** The create and rotate answers: the only time the private key is ever shown. */
export const ApiUserKeyIssued = z.looseObject({
  apiUser: ApiUserInfo,
  apiKey: z.string(),
  /** PKCS#8 DER hex: what the provider's SDKs take as the private key. */
  privateKeyHex: z.string(),
});
export type ApiUserKeyIssued = z.infer<typeof ApiUserKeyIssued>;
