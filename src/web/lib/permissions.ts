import { roleAllows, type Permission, type SessionResponse } from '#contract/staff-record.ts';
import { useSession } from './session-queries.ts';

/**
 * What the UI offers a member: an action a role cannot take is not offered.
 * Which role holds which permission is declared once, in the contract
 * (`ROLE_PERMISSIONS`), and the server holds every route to it; here each
 * UI action only names the permission it needs.
 */
const ACTION_PERMISSION = {
  view: 'read',
  'create-transaction': 'initiate',
  'create-bank-account': 'initiate',
  /** A ramp or FX is a transaction created from a quote; marking its deposit sent moves it on. */
  convert: 'initiate',
  'mark-deposit-sent': 'initiate',
  'propose-contact': 'initiate',
  /** A payment run is made, fixed, submitted, paused, resumed, cancelled and retried by initiators. */
  'create-payment-run': 'initiate',
  'reveal-bank-account': 'reveal',
  approve: 'approve',
  'manage-staff': 'admin',
  'view-audit': 'admin',
  'edit-policies': 'admin',
  /** The sandbox's webhook endpoints receive every sub-organization's events. */
  'manage-webhooks': 'admin',
  /** A ledger period and its journal are the whole organization's. */
  'view-ledger-periods': 'read',
  'close-ledger-periods': 'admin',
  /** Single sign-on decides who enters every sub-organization. */
  'manage-sso': 'admin',
  /** An admin of some sub-organizations manages the API users within them (the server decides). */
  'manage-api-keys': 'admin',
  /** Notifications name items of every sub-organization. */
  'manage-notifications': 'admin',
} as const satisfies Record<string, Permission>;

export type Action = keyof typeof ACTION_PERMISSION;
export const ACTIONS = Object.keys(ACTION_PERMISSION) as Action[];

/**
 * Signed out (or not yet known) and disabled members may do nothing. The
 * audit log and the approval policies are the organization's: an admin held
 * to some sub-organizations neither reads the one nor changes the other (the
 * server refuses with OUTSIDE_ADMIN_SCOPE).
 */
export function can(session: SessionResponse | undefined, action: Action): boolean {
  if (!session || session.member.disabled) return false;
  if (action === 'view-audit' && session.member.subOrgIds) return false;
  // A policy governs every sub-organization: only an admin of all of them changes one.
  if (action === 'edit-policies' && session.member.subOrgIds) return false;
  if (action === 'manage-webhooks' && session.member.subOrgIds) return false;
  if (
    (action === 'view-ledger-periods' || action === 'close-ledger-periods') &&
    session.member.subOrgIds
  )
    return false;
  if (action === 'manage-sso' && session.member.subOrgIds) return false;
  if (action === 'manage-notifications' && session.member.subOrgIds) return false;
  return roleAllows(session.member.role, ACTION_PERMISSION[action]);
}

export function useCan(action: Action): boolean {
  return can(useSession(), action);
}
