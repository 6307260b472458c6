import type { DemoAccount } from '#contract/auth.ts';
import type { Database } from '../db/client.ts';
import { createStaff, findStaffByEmail } from './staff.store.ts';

/**
 * Sandbox only: one demo member per role, named with their passwords on the
 * sign-in page (GET /auth/demo-accounts) so a first-time user can try every
 * role. Never created in upstream mode.
 */

export const DEMO_STAFF: readonly DemoAccount[] = [
  {
    email: 'viewer@sandbox.local',
    name: 'Vera Viewer',
    role: 'viewer',
    password: 'sandbox-viewer-pass',
  },
  {
    email: 'initiator@sandbox.local',
    name: 'Ivan Initiator',
    role: 'initiator',
    password: 'sandbox-initiator-pass',
  },
  {
    email: 'approver@sandbox.local',
    name: 'Ada Approver',
    role: 'approver',
    password: 'sandbox-approver-pass',
  },
  {
    email: 'admin@sandbox.local',
    name: 'Alex Admin',
    role: 'admin',
    password: 'sandbox-admin-pass',
  },
];

/** Creates whichever demo members are missing; an admin's later changes to them are kept. */
export async function seedDemoStaff(db: Database, now: Date): Promise<number> {
  let created = 0;
  for (const demo of DEMO_STAFF) {
    if (await findStaffByEmail(db, demo.email)) continue;
    await createStaff(db, { ...demo, subOrgIds: null }, { now });
    created += 1;
  }
  return created;
}
