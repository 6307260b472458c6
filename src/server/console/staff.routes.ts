import { Hono } from 'hono';
import type { z } from 'zod';
import type { StaffUpdateRequest } from '#contract/auth.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import {
  createStaff as createStaffEndpoint,
  listStaff as listStaffEndpoint,
  updateStaff as updateStaffEndpoint,
} from '#contract/endpoints/staff.ts';
import { audit } from '../auth/audit.ts';
import { unauthorized, type AuthOptions } from '../auth/session-auth.ts';
import { revokeStaffSessions } from '../auth/session.store.ts';
import { createStaff, getStaff, listStaff, toWireStaff, updateStaff } from '../auth/staff.store.ts';
import { ApiError } from '#contract/api-error.ts';
import type { AppEnv } from '../http/app-env.ts';
import { mount } from '../http/mount.ts';
import { administers, checkGrantedScope, checkOwnChange } from './admin-scope.ts';

/**
 * Staff management, admins only: list, create, change role/name/scope,
 * disable. An admin restricted to some sub-organizations administers only
 * inside them (admin-scope.ts). Each member records who created them, so a
 * decision between the two is flagged (linked-accounts.ts).
 */

function describeChanges(changes: z.output<typeof StaffUpdateRequest>): string {
  const parts: string[] = [];
  if (changes.name !== undefined) parts.push('name changed');
  if (changes.role !== undefined) parts.push(`role → ${changes.role}`);
  if (changes.subOrgIds !== undefined)
    parts.push(`sub-orgs → ${changes.subOrgIds ? changes.subOrgIds.join(', ') : 'all'}`);
  if (changes.disabled !== undefined) parts.push(changes.disabled ? 'disabled' : 'enabled');
  return parts.join('; ') || 'no change';
}

export function staffRoutes(options: AuthOptions) {
  const { db, clock } = options;
  const app = new Hono<AppEnv>();
  mount(app, CONSOLE_API_PREFIX, listStaffEndpoint, async (_input, c) => {
    const admin = c.get('staff');
    if (!admin) throw unauthorized();
    const rows = (await listStaff(db)).filter((member) => administers(admin, member));
    return { results: rows.map(toWireStaff), hasNext: false, nextCursor: null };
  });
  mount(app, CONSOLE_API_PREFIX, createStaffEndpoint, async ({ body: input }, c) => {
    const admin = c.get('staff');
    if (!admin) throw unauthorized();
    try {
      checkGrantedScope(admin, input.subOrgIds);
      const row = await createStaff(db, input, { now: clock.now(), createdBy: admin.id });
      await audit(c, options, {
        action: 'staff.create',
        entityType: 'STAFF',
        entityId: row.id,
        summary: `Created ${row.email} as ${row.role} (${row.subOrgIds ? `sub-orgs ${row.subOrgIds.join(', ')}` : 'all sub-orgs'})`,
        outcome: 'success',
      });
      return toWireStaff(row);
    } catch (error) {
      if (error instanceof ApiError)
        await audit(c, options, {
          action: 'staff.create',
          entityType: 'STAFF',
          summary: `Refused: ${error.message}`,
          outcome: error.status === 403 ? 'denied' : 'failed',
        });
      throw error;
    }
  });
  mount(
    app,
    CONSOLE_API_PREFIX,
    updateStaffEndpoint,
    async ({ params: { staffId: id }, body: changes }, c) => {
      const admin = c.get('staff');
      if (!admin) throw unauthorized();

      if (
        id === admin.id &&
        (changes.disabled === true || (changes.role && changes.role !== 'admin'))
      ) {
        await audit(c, options, {
          action: 'staff.update',
          entityType: 'STAFF',
          entityId: id,
          summary: 'Refused: an admin cannot disable or demote themselves',
          outcome: 'denied',
        });
        // Otherwise the last admin could lock everyone out of staff management.
        throw new ApiError(
          409,
          ERROR_CODES.selfLockout,
          'You cannot disable your own account or remove your own admin role',
        );
      }
      const target = await getStaff(db, id);
      // A member outside a restricted admin's scope is not theirs to see: as if absent.
      if (!target || !administers(admin, target))
        throw new ApiError(404, ERROR_CODES.notFound, 'No staff member with that id');
      try {
        if (id === admin.id) checkOwnChange(admin, changes);
        if (changes.subOrgIds !== undefined) checkGrantedScope(admin, changes.subOrgIds);
      } catch (error) {
        if (error instanceof ApiError)
          await audit(c, options, {
            action: 'staff.update',
            entityType: 'STAFF',
            entityId: id,
            summary: `Refused: ${error.message}`,
            outcome: 'denied',
          });
        throw error;
      }
      const row = await updateStaff(db, id, changes);
      if (!row) throw new ApiError(404, ERROR_CODES.notFound, 'No staff member with that id');
      // A disabled member's access ends now, not when their session would have expired.
      if (changes.disabled) await revokeStaffSessions(db, id, clock.now());
      await audit(c, options, {
        action: changes.disabled ? 'staff.disable' : 'staff.update',
        entityType: 'STAFF',
        entityId: id,
        summary: `${row.email}: ${describeChanges(changes)}`,
        outcome: 'success',
      });
      return toWireStaff(row);
    },
  );
  return app;
}
