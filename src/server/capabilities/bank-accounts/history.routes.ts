import { Hono } from 'hono';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { bankAccountHistory } from '#contract/endpoints/bank-accounts.ts';
import type { AuthOptions } from '../../auth/session-auth.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import { changeRequestHistoryOf, withLinkedFlags } from '../../console/change-request-history.ts';

/**
 * GET /api/console/bank_accounts/{id}/history/: who proposed the account, who
 * decided it, when, and the reason. Every member who may read the account may
 * read its history (a viewer too: it holds no account number); the account is
 * fetched through the scoped backend first, so one outside the member's
 * sub-organizations is a 404 like the account itself.
 */
export function historyRoutes(options: AuthOptions, backend: CustodyBackend) {
  return mount(
    new Hono<AppEnv>(),
    CONSOLE_API_PREFIX,
    bankAccountHistory,
    async ({ params: { bankAccountId: id } }, c) => {
      const ctx = custodyContext(c);
      await backend.getBankAccount(ctx, id);
      return withLinkedFlags(
        options.db,
        id,
        await changeRequestHistoryOf(options.db, backend, ctx, id, 'bank_account.create'),
      );
    },
  );
}
