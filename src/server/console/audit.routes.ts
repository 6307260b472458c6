import { Hono } from 'hono';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { listAudit as listAuditEndpoint } from '#contract/endpoints/staff.ts';
import { listAudit } from '../auth/audit.store.ts';
import { unauthorized, type AuthOptions } from '../auth/session-auth.ts';
import type { AppEnv } from '../http/app-env.ts';
import { mount } from '../http/mount.ts';
import { checkReadsAuditLog } from './admin-scope.ts';

/**
 * GET /api/console/audit/: the audit log for admins of every sub-organization,
 * newest first, filtered and keyset-paged. It is the organization's record
 * (sign-ins, every member's actions, every sub-organization's entities), so an
 * admin restricted to some sub-organizations does not read it (admin-scope.ts).
 */
export function auditRoutes(options: AuthOptions) {
  return mount(new Hono<AppEnv>(), CONSOLE_API_PREFIX, listAuditEndpoint, async ({ query }, c) => {
    const admin = c.get('staff');
    if (!admin) throw unauthorized();
    checkReadsAuditLog(admin);
    return listAudit(options.db, query);
  });
}
