import * as z from 'zod/mini';
import { IsoTimestamp, listEnvelope } from './common.ts';
import { DisplaySettings } from './display.ts';

/**
 * What every signed-in page reads of the console's staff: the roles and what
 * each may do, a member and the session as answered, the staff and audit
 * lists' filters. Apart from the sign-in, staff-change and passkey shapes in
 * `auth.ts` (which re-exports all of this), so that the first load carries
 * only these (ARCHITECTURE.md, "First load").
 */

export const STAFF_ROLES = ['viewer', 'initiator', 'approver', 'admin'] as const;
export const StaffRole = z.enum(STAFF_ROLES);
export type StaffRole = z.infer<typeof StaffRole>;

/**
 * What a role may do, in one vocabulary for both sides: the server holds
 * every route to one of these (each route declares it), and the SPA offers
 * only what the member's role holds.
 *
 * - read: every read. - initiate: create transactions, replacements, fee
 *   estimates and bank accounts. - approve: read approval messages and
 *   approve or reject. - reveal: see a bank account's full numbers (audited).
 * - admin: everything, plus staff management and the audit log.
 */
const PERMISSIONS = ['read', 'initiate', 'approve', 'reveal', 'admin'] as const;
export type Permission = (typeof PERMISSIONS)[number];

const ROLE_PERMISSIONS: Record<StaffRole, readonly Permission[]> = {
  viewer: ['read'],
  initiator: ['read', 'initiate', 'reveal'],
  approver: ['read', 'approve', 'reveal'],
  admin: PERMISSIONS,
};

export function roleAllows(role: StaffRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

export const StaffMember = z.looseObject({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: StaffRole,
  /** Sub-organizations the member may act in; null means all of them. */
  subOrgIds: z.nullable(z.array(z.string())),
  disabled: z.boolean(),
  createdAt: z.optional(z.string()),
  /** The member who created this one in the console; null when the CLI or the seed did. */
  createdBy: z.optional(z.nullable(z.string())),
});
export type StaffMember = z.infer<typeof StaffMember>;

export const SessionResponse = z.looseObject({
  member: StaffMember,
  orgId: z.optional(z.string()),
  csrfToken: z.string(),
  /** Absolute expiry (8 h after sign-in) and idle expiry (30 min after the last request). */
  expiresAt: z.string(),
  idleExpiresAt: z.string(),
  /** The member's time zone, where it came from, and their colour scheme. */
  display: DisplaySettings,
  /**
   * An approver or admin without a passkey, on a server that asks them to register one
   * (STAFF_PASSKEY_PROMPT): the pages remind them until they do.
   */
  askForPasskey: z.optional(z.boolean()),
});
export type SessionResponse = z.infer<typeof SessionResponse>;

export const StaffListResponse = listEnvelope(StaffMember);

/**
 * The staff list's filters: `q` finds a name or email containing it (any
 * case); `subOrgId` finds who may act there (members held to it and members
 * of every sub-organization).
 */
export const StaffFilters = z.object({
  q: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
  role: z.optional(StaffRole),
  subOrgId: z.optional(z.string().check(z.minLength(1))),
});
export type StaffFilters = z.infer<typeof StaffFilters>;

/** GET /auth/demo-accounts (sandbox only): one member per role, with the password to sign in as them. */
export const DemoAccount = z.looseObject({
  email: z.string(),
  password: z.string(),
  role: StaffRole,
  name: z.string(),
});
export type DemoAccount = z.infer<typeof DemoAccount>;
export const DemoAccountList = z.object({ results: z.array(DemoAccount) });
export type DemoAccountList = z.infer<typeof DemoAccountList>;

export const AUDIT_OUTCOMES = ['success', 'denied', 'failed'] as const;
export const AuditOutcome = z.enum(AUDIT_OUTCOMES);

export const AuditFilters = z.object({
  actorId: z.optional(z.string().check(z.minLength(1))),
  action: z.optional(z.string().check(z.minLength(1))),
  entityType: z.optional(z.string().check(z.minLength(1))),
  entityId: z.optional(z.string().check(z.minLength(1))),
  outcome: z.optional(AuditOutcome),
  atGte: z.optional(IsoTimestamp),
  atLte: z.optional(IsoTimestamp),
});
export type AuditFilters = z.infer<typeof AuditFilters>;

export const CSRF_HEADER = 'X-CSRF-Token';
