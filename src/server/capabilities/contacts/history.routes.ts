import { Hono } from 'hono';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { contactHistory } from '#contract/endpoints/contacts.ts';
import type { AuthOptions } from '../../auth/session-auth.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import { changeRequestHistoryOf, withLinkedFlags } from '../../console/change-request-history.ts';

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
      return withLinkedFlags(
        options.db,
        id,
        await changeRequestHistoryOf(options.db, backend, ctx, id, 'contact.create'),
      );
    },
  );
}
