import { Hono } from 'hono';
import type { ChangeRequestHistory } from '#contract/change-request.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { contactHistory } from '#contract/endpoints/contacts.ts';
import type { AuthOptions } from '../../auth/session-auth.ts';
import { linkedDeciders } from '../../console/linked-accounts.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import { changeRequestHistoryOf } from '../../console/change-request-history.ts';

/**
 * GET /api/console/contacts/{id}/history/: who proposed the contact and each
 * change to its asset list, who decided each, when, and the reason. The
 * contact is read through the scoped backend first, so one outside the
 * member's sub-organizations is a 404 like the contact itself.
 */
export function contactHistoryRoutes(options: AuthOptions, backend: CustodyBackend) {
  return mount(
    new Hono<AppEnv>(),
    CONSOLE_API_PREFIX,
    contactHistory,
    async ({ params: { contactId: id } }, c) => {
      const ctx = custodyContext(c);
      await backend.getContact(ctx, id);
      const history = await changeRequestHistoryOf(options.db, backend, ctx, id, 'contact.create');
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
