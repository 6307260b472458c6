import { Hono } from 'hono';
import type { Context } from 'hono';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import {
  createStaff as createStaffEndpoint,
  listStaff as listStaffEndpoint,
  proposeFactorReset,
  updateStaff as updateStaffEndpoint,
} from '#contract/endpoints/staff.ts';
import { audit } from '../auth/audit.ts';
import { endSessionStreams, unauthorized, type AuthOptions } from '../auth/session-auth.ts';
import { revokeStaffSessions } from '../auth/session.store.ts';
import { newSetupCode, SETUP_LIFETIME_MS, unknownPasswordHash } from '../auth/staff-setup.ts';
import {
  changesAccess,
  createStaff,
  findStaffByEmail,
  getStaff,
  listStaff,
  toWireStaff,
  updateStaff,
} from '../auth/staff.store.ts';
import { ApiError } from '#contract/api-error.ts';
import type { AppEnv } from '../http/app-env.ts';
import { mount } from '../http/mount.ts';
import { administers, checkGrantedScope, checkOwnChange } from './admin-scope.ts';
import { notFound } from './scope-rules.ts';
import { pageOfStaff } from './staff-list.ts';
import {
  changeNeedsApproval,
  creationNeedsApproval,
  describeChanges,
  scopeText,
  type ProposeStaffChange,
} from './staff-proposals.ts';

/**
 * Staff management, admins only: list, create, change role/name/scope,
 * disable, reset another's second factor. An admin restricted to some
 * sub-organizations administers only inside them (admin-scope.ts). What
 * grants approve or admin rights, widens a scope or resets a factor is a
 * proposal another admin decides: `propose` files it with the approval core,
 * which lists it, decides it and applies it (staff-proposals.ts). A member made here
 * chooses their own password with a one-time set-up code
 * (auth/staff-setup.ts). Each member records who created them, so a
 * decision between the two is refused or flagged (linked-accounts.ts).
 */

export function staffRoutes(options: AuthOptions, propose: ProposeStaffChange) {
  const { db, clock } = options;
  const app = new Hono<AppEnv>();

  /** Records a refusal under the route's action, then throws it on. */
  async function refused<T>(
    c: Context<AppEnv>,
    fields: { action: string; entityType: string; entityId?: string },
    run: () => Promise<T>,
  ): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ApiError)
        await audit(c, options, {
          ...fields,
          summary: `Refused: ${error.message}`,
          outcome: error.status === 403 ? 'denied' : 'failed',
        });
      throw error;
    }
  }

  async function signedInAdmin(c: Context<AppEnv>) {
    const session = c.get('staff');
    if (!session) throw unauthorized();
    // The full record (createdBy, disabled): what decides whether this admin may decide.
    const admin = await getStaff(db, session.id);
    if (!admin) throw unauthorized();
    return admin;
  }

  mount(app, CONSOLE_API_PREFIX, listStaffEndpoint, async ({ query }, c) => {
    const admin = c.get('staff');
    if (!admin) throw unauthorized();
    // A sub-organization outside a restricted admin's own is not found, as in every list.
    if (query.subOrgId && admin.subOrgIds && !admin.subOrgIds.includes(query.subOrgId))
      throw notFound('sub-organization', query.subOrgId);
    const rows = (await listStaff(db)).filter((member) => administers(admin, member));
    const { limit, cursor, ...filters } = query;
    const page = pageOfStaff(rows, filters, { limit, cursor });
    return { ...page, results: page.results.map(toWireStaff) };
  });

  mount(app, CONSOLE_API_PREFIX, createStaffEndpoint, async ({ body: input }, c) => {
    const admin = await signedInAdmin(c);
    return refused(c, { action: 'staff.create', entityType: 'STAFF' }, async () => {
      checkGrantedScope(admin, input.subOrgIds);
      const setup = newSetupCode();
      const now = clock.now();
      if (creationNeedsApproval(input.role)) {
        if (await findStaffByEmail(db, input.email))
          throw new ApiError(
            409,
            ERROR_CODES.conflict,
            `A staff member with email ${input.email} already exists`,
            [{ field: 'email', message: 'is already in use' }],
          );
        const subOrgIds = input.subOrgIds ?? null;
        const proposal = await propose(
          {
            kind: 'create',
            staffId: null,
            change: { email: input.email, name: input.name, role: input.role, subOrgIds },
            setupHash: setup.hash,
            summary: `Add ${input.name} (${input.email}) as ${input.role} (${scopeText(subOrgIds)})`,
          },
          admin,
        );
        await audit(c, options, {
          action: 'staff.create',
          entityType: 'STAFF_PROPOSAL',
          entityId: proposal.id,
          summary: `Proposed: ${proposal.summary}; another admin must approve`,
          outcome: 'success',
        });
        return {
          outcome: 'proposed' as const,
          member: null,
          proposal,
          setup: { token: setup.token, expiresAt: null },
        };
      }
      const expiresAt = new Date(now.getTime() + SETUP_LIFETIME_MS);
      const row = await createStaff(
        db,
        { ...input, password: '' },
        {
          now,
          passwordHash: await unknownPasswordHash(),
          createdBy: admin.id,
          setup: { hash: setup.hash, expiresAt },
        },
      );
      await audit(c, options, {
        action: 'staff.create',
        entityType: 'STAFF',
        entityId: row.id,
        summary: `Created ${row.email} as ${row.role} (${scopeText(row.subOrgIds)}); they choose their password with a set-up code`,
        outcome: 'success',
      });
      return {
        outcome: 'applied' as const,
        member: toWireStaff(row),
        proposal: null,
        setup: { token: setup.token, expiresAt: expiresAt.toISOString() },
      };
    });
  });

  mount(
    app,
    CONSOLE_API_PREFIX,
    updateStaffEndpoint,
    async ({ params: { staffId: id }, body: changes }, c) => {
      const admin = await signedInAdmin(c);

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
      const fields = { action: 'staff.update', entityType: 'STAFF', entityId: id };
      return refused(c, fields, async () => {
        if (id === admin.id) checkOwnChange(admin, changes);
        if (changes.subOrgIds !== undefined) checkGrantedScope(admin, changes.subOrgIds);
        const now = clock.now();
        if (changeNeedsApproval(target, changes)) {
          const proposal = await propose(
            {
              kind: 'update',
              staffId: id,
              change: changes,
              summary: `${target.email}: ${describeChanges(changes)}`,
            },
            admin,
          );
          await audit(c, options, {
            ...fields,
            summary: `Proposed: ${proposal.summary}; another admin must approve`,
            outcome: 'success',
          });
          return { outcome: 'proposed' as const, member: toWireStaff(target), proposal };
        }
        const row = await updateStaff(db, id, changes);
        if (!row) throw new ApiError(404, ERROR_CODES.notFound, 'No staff member with that id');
        // A disabled member's access ends now, not when their session would have expired; a
        // role or scope change ends their sessions too, so the next one holds the new role's
        // rules (its second factor among them).
        const ends = changes.disabled === true || changesAccess(target, changes);
        // Other servers' streams end at their hub's next check of the sessions.
        if (ends) endSessionStreams(options, await revokeStaffSessions(db, id, now));
        await audit(c, options, {
          ...fields,
          action: changes.disabled ? 'staff.disable' : 'staff.update',
          summary: `${row.email}: ${describeChanges(changes)}${ends && !changes.disabled ? '; their sessions ended' : ''}`,
          outcome: 'success',
        });
        return { outcome: 'applied' as const, member: toWireStaff(row), proposal: null };
      });
    },
  );

  mount(app, CONSOLE_API_PREFIX, proposeFactorReset, async ({ params: { staffId: id } }, c) => {
    const admin = await signedInAdmin(c);
    const target = await getStaff(db, id);
    if (!target || !administers(admin, target))
      throw new ApiError(404, ERROR_CODES.notFound, 'No staff member with that id');
    const fields = { action: 'staff.reset_factor', entityType: 'STAFF', entityId: id };
    return refused(c, fields, async () => {
      if (id === admin.id)
        throw new ApiError(
          400,
          ERROR_CODES.validation,
          'Your own second factor is replaced from your account page',
        );
      const proposal = await propose(
        {
          kind: 'reset_factor',
          staffId: id,
          change: {},
          summary: `Reset the second factor of ${target.email} (they set up a new one at their next sign-in)`,
        },
        admin,
      );
      await audit(c, options, {
        ...fields,
        summary: `Proposed: ${proposal.summary}; another admin must approve`,
        outcome: 'success',
      });
      return { outcome: 'proposed' as const, member: toWireStaff(target), proposal };
    });
  });

  return app;
}
