import type { SessionResponse, StaffRole } from '#contract/auth.ts';
import { effectiveDisplay, type DisplaySettings } from '#contract/display.ts';

/** A session as GET /auth/session answers it, for a member with `role` (UTC unless `display` says). */
export function sessionFor(
  role: StaffRole,
  overrides: Partial<SessionResponse['member']> = {},
  display: DisplaySettings = effectiveDisplay({
    chosenTimeZone: null,
    browserTimeZone: 'UTC',
    colorScheme: 'system',
  }),
): SessionResponse {
  return {
    member: {
      id: `staff_${role}`,
      email: `${role}@example.test`,
      name: `Test ${role.charAt(0).toUpperCase()}${role.slice(1)}`,
      role,
      subOrgIds: null,
      disabled: false,
      ...overrides,
    },
    csrfToken: `csrf-${role}`,
    expiresAt: '2099-01-01T08:00:00.000Z',
    idleExpiresAt: '2099-01-01T00:30:00.000Z',
    display,
  };
}
