import { Hono } from 'hono';
import type { ChangeRequestHistory } from '../../../contract/change-request.ts';
import { CONSOLE_API_PREFIX } from '../../../contract/endpoint.ts';
import { transactionHistory } from '../../../contract/endpoints/transactions.ts';
import type { AuthOptions } from '../../auth/session-auth.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import { historyFromAuditLog, nameStaff } from '../bank-accounts/history.routes.ts';

/**
 * GET /api/console/transactions/{id}/history/: who created the transaction
 * and who approved or declined it, when, and why, named — the custody API
 * answers a creator only as an id. Read like the bank-account history: any
 * member who may read the transaction (it is fetched through the scoped
 * backend first, so one outside the member's sub-organizations is a 404).
 */
export function transactionHistoryRoutes(options: AuthOptions, backend: CustodyBackend) {
  return mount(
    new Hono<AppEnv>(),
    CONSOLE_API_PREFIX,
    transactionHistory,
    async ({ params: { transactionId: id } }, c) => {
      const ctx = custodyContext(c);
      await backend.getTransaction(ctx, id);
      const fromBackend = backend.changeRequestHistory
        ? await backend.changeRequestHistory(ctx, id)
        : null;
      const results =
        fromBackend ?? (await historyFromAuditLog(options.db, id, 'transaction.create'));
      const body: ChangeRequestHistory = {
        entityId: id,
        source: fromBackend ? 'change_requests' : 'audit_log',
        results: await nameStaff(options.db, results),
      };
      return body;
    },
  );
}
