import { Hono } from 'hono';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { transactionHistory } from '#contract/endpoints/transactions.ts';
import type { AuthOptions } from '../../auth/session-auth.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import { changeRequestHistoryOf } from '../../console/change-request-history.ts';

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
      return changeRequestHistoryOf(options.db, backend, ctx, id, 'transaction.create');
    },
  );
}
