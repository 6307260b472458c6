import * as z from 'zod/mini';

/**
 * SCIM 2.0 (RFC 7643, 7644) as the console answers it at /scim/v2
 * (server/auth/sso/scim.routes.ts): the parts of User and Group a
 * treasury console keeps, and the protocol's PATCH and error shapes.
 * Unknown attributes are accepted and ignored, as the RFC allows.
 */

export const SCIM_USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const SCIM_GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const SCIM_LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const SCIM_PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** Azure AD sends booleans as the strings "True" and "False". */
export const ScimBoolean = z.pipe(
  z.union([z.boolean(), z.enum(['True', 'False', 'true', 'false'])]),
  z.transform((value) => value === true || value === 'True' || value === 'true'),
);

const ScimEmail = z.looseObject({
  value: z.string().check(z.minLength(3, 'emails.value must be an email address')),
  primary: z.optional(ScimBoolean),
  type: z.optional(z.string()),
});

export const ScimUserBody = z.looseObject({
  userName: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'userName is required'),
      z.maxLength(320, 'userName is too long'),
    ),
  externalId: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
  displayName: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
  name: z.optional(
    z.nullable(
      z.looseObject({
        formatted: z.optional(z.nullable(z.string())),
        givenName: z.optional(z.nullable(z.string())),
        familyName: z.optional(z.nullable(z.string())),
      }),
    ),
  ),
  emails: z.optional(z.nullable(z.array(ScimEmail))),
  active: z.optional(ScimBoolean),
});
export type ScimUserBody = z.infer<typeof ScimUserBody>;

const ScimMemberRef = z.looseObject({
  value: z.string().check(z.minLength(1, 'members.value is required')),
});

export const ScimGroupBody = z.looseObject({
  displayName: z
    .string()
    .check(z.trim(), z.minLength(1, 'displayName is required'), z.maxLength(200)),
  externalId: z.optional(z.nullable(z.string().check(z.maxLength(200)))),
  members: z.optional(z.nullable(z.array(ScimMemberRef))),
});
export type ScimGroupBody = z.infer<typeof ScimGroupBody>;

export const ScimPatchBody = z.looseObject({
  schemas: z
    .array(z.string())
    .check(
      z.refine((s) => s.includes(SCIM_PATCH_SCHEMA), `schemas must include ${SCIM_PATCH_SCHEMA}`),
    ),
  Operations: z
    .array(
      z.looseObject({
        // Azure AD writes the op capitalized ("Replace").
        op: z.pipe(
          z.string(),
          z.transform((op) => op.toLowerCase()),
        ),
        path: z.optional(z.string()),
        value: z.optional(z.unknown()),
      }),
    )
    .check(z.minLength(1, 'Operations must hold at least one operation')),
});
export type ScimPatchBody = z.infer<typeof ScimPatchBody>;
