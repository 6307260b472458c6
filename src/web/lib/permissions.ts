import type { SessionResponse, StaffRole } from '../../contract/auth.ts';
import { useSession } from './session-queries.ts';

/**
 * What each role may do, as the UI reflects it: actions a role cannot take
 * are not offered. The server enforces the same rules on every request.
 */
export const ACTIONS = [
  'view',
  'create-transaction',
  'create-bank-account',
  'reveal-bank-account',
  'approve',
  'manage-staff',
  'view-audit',
] as const;
export type Action = (typeof ACTIONS)[number];

const ROLE_ACTIONS: Record<StaffRole, ReadonlySet<Action>> = {
  viewer: new Set(['view']),
  initiator: new Set(['view', 'create-transaction', 'create-bank-account', 'reveal-bank-account']),
  approver: new Set(['view', 'approve', 'reveal-bank-account']),
  admin: new Set(ACTIONS),
};

/** Signed out (or not yet known) and disabled members may do nothing. */
export function can(session: SessionResponse | undefined, action: Action): boolean {
  if (!session || session.member.disabled) return false;
  return ROLE_ACTIONS[session.member.role].has(action);
}

export function useCan(action: Action): boolean {
  return can(useSession(), action);
}
