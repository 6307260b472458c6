import type { StaffRole } from '../../contract/auth.ts';

/**
 * What each staff role may do on the custody API (DESIGN.md §5). Checked on
 * every /api/external request a session makes; API clients are governed by
 * the custody service's own rules instead.
 *
 * - viewer: every read.
 * - initiator: reads + create transactions, replacements, fee estimates, bank accounts.
 * - approver: reads + approval messages and approve/reject actions.
 * - admin: everything, plus staff management and the audit log.
 *
 * Reading an approval message is an approver's step (it is what they decide
 * on), so viewers and initiators are refused it like the action itself.
 */

export type Permission = 'read' | 'initiate' | 'approve' | 'admin';

export const ROLE_PERMISSIONS: Record<StaffRole, readonly Permission[]> = {
  viewer: ['read'],
  initiator: ['read', 'initiate'],
  approver: ['read', 'approve'],
  admin: ['read', 'initiate', 'approve', 'admin'],
};

interface Rule {
  method: string;
  /** Matched against the path below /api/external. */
  pattern: RegExp;
  permission: Permission;
  /** Names the action in a refusal: "The viewer role cannot create transactions". */
  action: string;
}

const SEGMENT = '[^/]+';
const RULES: Rule[] = [
  {
    method: 'POST',
    pattern: /^\/transactions\/$/,
    permission: 'initiate',
    action: 'create transactions',
  },
  {
    method: 'POST',
    pattern: /^\/transactions\/replace_transaction\/$/,
    permission: 'initiate',
    action: 'replace transactions',
  },
  {
    method: 'POST',
    pattern: /^\/transactions\/estimate_fee\/$/,
    permission: 'initiate',
    action: 'estimate transaction fees',
  },
  {
    method: 'POST',
    pattern: /^\/bank_accounts\/$/,
    permission: 'initiate',
    action: 'create bank accounts',
  },
  {
    method: 'GET',
    pattern: /^\/change_requests\/approvals\/approval_message\/$/,
    permission: 'approve',
    action: 'read approval messages',
  },
  {
    method: 'POST',
    pattern: new RegExp(`^/change_requests/approvals/${SEGMENT}/action/$`),
    permission: 'approve',
    action: 'approve or reject change requests',
  },
];

export interface Requirement {
  permission: Permission;
  action: string;
}

/** The permission a request needs. Reads need `read`; a mutation not listed is admin-only until someone decides otherwise. */
export function requirementFor(method: string, apiPath: string): Requirement {
  const upper = method.toUpperCase();
  const rule = RULES.find((r) => r.method === upper && r.pattern.test(apiPath));
  if (rule) return { permission: rule.permission, action: rule.action };
  if (upper === 'GET' || upper === 'HEAD' || upper === 'OPTIONS')
    return { permission: 'read', action: 'read' };
  return { permission: 'admin', action: `${upper} ${apiPath}` };
}

export function roleAllows(role: StaffRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/** Who may reveal a full account number: those who create or judge bank accounts; a viewer only reads masked ones. */
export const REVEAL_ROLES: readonly StaffRole[] = ['initiator', 'approver', 'admin'];
