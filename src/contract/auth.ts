import * as z from 'zod/mini';
import { IsoTimestamp, listEnvelope } from './common.ts';

/**
 * The console's own wire format for staff sign-in, staff management and the
 * audit log. Not part of the custody API: these live under /auth and
 * /api/console on the console server.
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

/** An email address, trimmed and in lower case before it is checked. */
const emailAddress = z
  .string()
  .check(z.trim(), z.toLowerCase(), z.regex(z.regexes.email, 'email must be an email address'));

export const LoginRequest = z.strictObject({
  email: emailAddress,
  password: z
    .string()
    .check(z.minLength(1, 'password is required'), z.maxLength(1024, 'password is too long')),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const StaffMember = z.looseObject({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: StaffRole,
  /** Sub-organizations the member may act in; null means all of them. */
  subOrgIds: z.nullable(z.array(z.string())),
  disabled: z.boolean(),
  createdAt: z.optional(z.string()),
});
export type StaffMember = z.infer<typeof StaffMember>;

export const SessionResponse = z.looseObject({
  member: StaffMember,
  orgId: z.optional(z.string()),
  csrfToken: z.string(),
  /** Absolute expiry (8 h after sign-in) and idle expiry (30 min after the last request). */
  expiresAt: z.string(),
  idleExpiresAt: z.string(),
});
export type SessionResponse = z.infer<typeof SessionResponse>;

/** Staff passwords: long enough to resist guessing, no composition rules (NIST 800-63B). */
const StaffPassword = z
  .string()
  .check(
    z.minLength(12, 'password must be at least 12 characters'),
    z.maxLength(1024, 'password must be at most 1024 characters'),
  );

export const StaffCreateRequest = z.strictObject({
  email: emailAddress,
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'name is required'),
      z.maxLength(120, 'name must be at most 120 characters'),
    ),
  role: StaffRole,
  subOrgIds: z.optional(z.nullable(z.array(z.string().check(z.minLength(1))))),
  password: StaffPassword,
});
export type StaffCreateRequest = z.infer<typeof StaffCreateRequest>;

export const StaffUpdateRequest = z.strictObject({
  name: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(120))),
  role: z.optional(StaffRole),
  subOrgIds: z.optional(z.nullable(z.array(z.string().check(z.minLength(1))))),
  disabled: z.optional(z.boolean()),
});
export type StaffUpdateRequest = z.infer<typeof StaffUpdateRequest>;

export const StaffListResponse = listEnvelope(StaffMember);

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
const AuditOutcome = z.enum(AUDIT_OUTCOMES);

export const AuditEntry = z.looseObject({
  id: z.string(),
  at: z.string(),
  actorType: z.string(),
  actorId: z.nullable(z.string()),
  actorName: z.optional(z.nullable(z.string())),
  action: z.string(),
  entityType: z.nullable(z.string()),
  entityId: z.nullable(z.string()),
  summary: z.string(),
  outcome: AuditOutcome,
  requestId: z.nullable(z.string()),
});
export type AuditEntry = z.infer<typeof AuditEntry>;
export const AuditListResponse = listEnvelope(AuditEntry);
export type AuditListResponse = z.infer<typeof AuditListResponse>;

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
export const SESSION_COOKIE = 'cc_session';
/**
 * The session cookie's name where the console is served over HTTPS: the
 * browser keeps a `__Host-` cookie only if it is Secure, for Path=/ and
 * without a Domain, so a sibling subdomain cannot set one for the console.
 */
export const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

export const authPaths = {
  login: '/auth/login',
  logout: '/auth/logout',
  session: '/auth/session',
  staff: '/api/console/staff/',
  staffMember: (id: string) => `/api/console/staff/${encodeURIComponent(id)}/`,
  audit: '/api/console/audit/',
  revealBankAccount: (id: string) => `/api/console/bank_accounts/${encodeURIComponent(id)}/reveal/`,
} as const;
