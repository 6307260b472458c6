import * as z from 'zod/mini';
import { IsoTimestamp, listEnvelope } from './common.ts';

/**
 * The organization's activity log as the SDKs' getActivityEvents reads it:
 * who asked for a change, who approved or rejected it, and when it took
 * effect (or failed), newest first, keyset-paged like every list.
 */

const VERBS = ['create', 'update', 'delete'] as const;
const STAGES = ['requested', 'approved', 'rejected', 'applied'] as const;

/** `create_requested` … `delete_applied`: the provider's twelve actions. */
export const ACTIVITY_ACTIONS = VERBS.flatMap((verb) =>
  STAGES.map((stage) => `${verb}_${stage}` as const),
);

export const ACTIVITY_OUTCOMES = ['success', 'failure'] as const;

/** The provider's entity types; the sandbox records the first four. */
export const ACTIVITY_ENTITY_TYPES = [
  'Transaction',
  'Vault',
  'Contact',
  'OrgBankAccount',
  'Group',
  'ECUser',
  'PolicyRule',
  'PolicySet',
  'PolicyTemplate',
  'OrgMetaPolicy',
  'CustomDApp',
] as const;
export type ActivityEntityType = (typeof ACTIVITY_ENTITY_TYPES)[number];

export const ACTIVITY_PLATFORMS = ['web', 'pwa', 'ios', 'android', 'api', 'unknown'] as const;

const oneOf = (field: string, values: readonly string[]) =>
  z.optional(
    z
      .string()
      .check(
        z.refine((value) => values.includes(value), `${field} must be one of ${values.join(', ')}`),
      ),
  );

const time = (field: string) =>
  z.optional(
    z
      .string()
      .check(
        z.refine(
          (value) => IsoTimestamp.safeParse(value).success,
          `${field} is an ISO 8601 time with its zone, like 2026-01-01T00:00:00Z`,
        ),
      ),
  );

/** GET /api/external/activity/events/: each filter optional, one value each, all composable. */
export const ActivityEventFilters = z.object({
  action: oneOf('action', ACTIVITY_ACTIONS),
  outcome: oneOf('outcome', ACTIVITY_OUTCOMES),
  entityType: oneOf('entityType', ACTIVITY_ENTITY_TYPES),
  entityId: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  actorId: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  platformType: oneOf('platformType', ACTIVITY_PLATFORMS),
  createdAtGte: time('createdAtGte'),
  createdAtLte: time('createdAtLte'),
});
export type ActivityEventFilters = z.infer<typeof ActivityEventFilters>;

export const ActivityEventMetaData = z.looseObject({
  platform: z.optional(z.nullable(z.string())),
  sourceIp: z.optional(z.nullable(z.string())),
  userAgent: z.optional(z.nullable(z.string())),
});

export const ActivityEvent = z.looseObject({
  id: z.string(),
  action: z.string(),
  outcome: z.optional(z.nullable(z.string())),
  activityLabel: z.optional(z.nullable(z.string())),
  createdAt: z.optional(z.nullable(z.string())),
  entityType: z.optional(z.nullable(z.string())),
  entityId: z.optional(z.nullable(z.string())),
  entityName: z.optional(z.nullable(z.string())),
  actorId: z.optional(z.nullable(z.string())),
  metaData: z.optional(z.nullable(ActivityEventMetaData)),
  schemaVersion: z.optional(z.nullable(z.string())),
  /** The sandbox's extra: the sub-organization of the entity (null: the organization's). */
  subOrgId: z.optional(z.nullable(z.string())),
});
export type ActivityEvent = z.infer<typeof ActivityEvent>;
export const ActivityEventListResponse = listEnvelope(ActivityEvent);
export type ActivityEventListResponse = z.infer<typeof ActivityEventListResponse>;
