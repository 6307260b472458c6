import { Hono } from 'hono';
import type { ChangeRequestHistory } from '#contract/change-request.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { bankAccountHistory } from '#contract/endpoints/bank-accounts.ts';
import type { AuthOptions } from '../../auth/session-auth.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import { changeRequestHistoryOf } from '../../console/change-request-history.ts';
import { linkedDeciders } from '../../console/linked-accounts.ts';

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
      const history = await changeRequestHistoryOf(
        options.db,
        backend,
        ctx,
        id,
        'bank_account.create',
      );
      // A decision between members linked by member management is flagged (linked-accounts.ts).
      const linked = (await linkedDeciders(options.db, [id])).get(id);
      const body: ChangeRequestHistory = {
        ...history,
        results: history.results.map((r) =>
          r.decidedBy?.type === 'STAFF' && linked?.has(r.decidedBy.id)
            ? { ...r, linkedAccounts: true }
            : r,
        ),
      };
      return body;
    },
  );
}
