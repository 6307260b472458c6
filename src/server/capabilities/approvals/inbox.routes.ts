import { Hono } from 'hono';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { approvalInboxCount } from '#contract/endpoints/approval-counts.ts';
import { approvalCosts, approvalInbox } from '#contract/endpoints/approvals.ts';
import type { AuthOptions } from '../../auth/session-auth.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import { approvalCosts as approvalCosts_ } from './cost.ts';
import type { ApprovableKind } from './core/kind.ts';
import { approvalInbox as approvalInbox_, approvalInboxWaiting, withProgress } from './inbox.ts';

/**
 * GET /api/console/approvals/?limit&cursor&subOrgId: PENDING transactions,
 * bank accounts, contacts and items of the kinds the console holds, newest first (see approval-inbox.ts). For the roles that
 * decide (the `approve` permission): the inbox is their work list. The
 * backend given is the scoped one, so a restricted member sees only their
 * sub-orgs and a sub-org outside them is 404, as on every list. The console's
 * database names who proposed each item (staff, audit log).
 */
export function approvalInboxRoutes(
  options: AuthOptions,
  backend: CustodyBackend,
  kinds: readonly ApprovableKind[],
) {
  const app = new Hono<AppEnv>();
  // The kinds the console holds itself wait in the same inbox, read through the approval core.
  const held = { kinds, clock: options.clock };
  // The badge's poll, from every page: the inbox's counts, no page of it named or carded (the
  // overview's waiting figure reads the same counts).
  mount(app, CONSOLE_API_PREFIX, approvalInboxCount, async ({ query: { subOrgId } }, c) => {
    const { actionableCount, totalCount, youApprovedCount } = await approvalInboxWaiting(
      backend,
      custodyContext(c),
      options.db,
      subOrgId,
      held,
    );
    return { actionableCount, totalCount, youApprovedCount };
  });
  // What approving costs, for the approve dialogs: the scoped backend leaves out what the member may not see.
  mount(app, CONSOLE_API_PREFIX, approvalCosts, ({ query: { entityIds } }, c) =>
    approvalCosts_(backend, custodyContext(c), entityIds),
  );
  return mount(
    app,
    CONSOLE_API_PREFIX,
    approvalInbox,
    async ({ query: { subOrgId, limit, cursor } }, c) => {
      const ctx = custodyContext(c);
      const page = await approvalInbox_(
        backend,
        ctx,
        options.db,
        {
          subOrgId,
          page: { limit, cursor },
        },
        held,
      );
      // What each item still needs under its approval rule (the badge's count has no use for it),
      // and whether this member's decision on it would be flagged.
      const member = ctx.actor?.type === 'STAFF' ? ctx.actor.id : null;
      return { ...page, results: await withProgress(options.db, page.results, kinds, member) };
    },
  );
}
