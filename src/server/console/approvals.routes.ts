import { Hono } from 'hono';
import { ApprovalInboxFilters } from '../../contract/approval-inbox.ts';
import type { AuthOptions } from '../auth/session-auth.ts';
import type { CustodyBackend } from '../custody/backend.ts';
import { custodyContext } from '../custody/context.ts';
import { parseFilters, parsePageRequest } from '../http/list-query.ts';
import type { AppEnv } from '../http/app-env.ts';
import { rule } from '../http/route-rule.ts';
import { approvalInbox } from './approval-inbox.ts';

/**
 * GET /api/console/approvals/?limit&cursor&subOrgId: PENDING transactions and
 * bank accounts, newest first (see approval-inbox.ts). For the roles that
 * decide (the `approve` permission): the inbox is their work list. The
 * backend given is the scoped one, so a restricted member sees only their
 * sub-orgs and a sub-org outside them is 404, as on every list. The console's
 * database names who proposed each item (staff, audit log).
 */
export function approvalInboxRoutes(options: AuthOptions, backend: CustodyBackend) {
  return new Hono<AppEnv>().get(
    '/approvals/',
    rule({ permission: 'approve', action: 'read the approvals inbox', audit: false }),
    async (c) => {
      const page = parsePageRequest(c);
      const { subOrgId } = parseFilters(c, ApprovalInboxFilters);
      return c.json(
        await approvalInbox(backend, custodyContext(c), options.db, { subOrgId, page }),
      );
    },
  );
}
