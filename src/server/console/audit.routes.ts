import { Hono } from 'hono';
import { AuditFilters } from '../../contract/auth.ts';
import { listAudit } from '../auth/audit.store.ts';
import type { AuthOptions } from '../auth/session-auth.ts';
import { parseFilters, parsePageRequest } from '../http/list-query.ts';
import type { AppEnv } from '../http/app-env.ts';
import { rule } from '../http/route-rule.ts';

/** GET /api/console/audit/: the audit log for admins, newest first, filtered and keyset-paged. */
export function auditRoutes(options: AuthOptions) {
  return new Hono<AppEnv>().get(
    '/audit/',
    rule({ permission: 'admin', action: 'read the audit log', audit: false }),
    async (c) => {
      const page = parsePageRequest(c);
      const filters = parseFilters(c, AuditFilters);
      return c.json(await listAudit(options.db, { ...filters, ...page }));
    },
  );
}
