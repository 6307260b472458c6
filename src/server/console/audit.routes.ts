import { Hono } from 'hono';
import { AuditFilters } from '../../contract/auth.ts';
import { listAudit } from '../auth/audit.store.ts';
import { unauthorized, type AuthOptions } from '../auth/session-auth.ts';
import { parseFilters, parsePageRequest } from '../http/list-query.ts';
import type { AppEnv } from '../http/app-env.ts';
import { rule } from '../http/route-rule.ts';
import { checkReadsAuditLog } from './admin-scope.ts';

/**
 * GET /api/console/audit/: the audit log for admins of every sub-organization,
 * newest first, filtered and keyset-paged. It is the organization's record
 * (sign-ins, every member's actions, every sub-organization's entities), so an
 * admin restricted to some sub-organizations does not read it (admin-scope.ts).
 */
export function auditRoutes(options: AuthOptions) {
  return new Hono<AppEnv>().get(
    '/audit/',
    rule({ permission: 'admin', action: 'read the audit log', audit: false }),
    async (c) => {
      const admin = c.get('staff');
      if (!admin) throw unauthorized();
      checkReadsAuditLog(admin);
      const page = parsePageRequest(c);
      const filters = parseFilters(c, AuditFilters);
      return c.json(await listAudit(options.db, { ...filters, ...page }));
    },
  );
}
