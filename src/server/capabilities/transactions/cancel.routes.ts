import { Hono } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { cancelScheduledTransaction } from '#contract/endpoints/transaction-writes.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';

/**
 * POST /api/console/transactions/{id}/cancel/: a scheduled transfer called
 * off before its time. The custody API has no cancel, so this is the
 * console's own route, through the scoped backend (404 outside the member's
 * sub-organizations); the transaction's error names the member who cancelled
 * it. Upstream there is nothing to ask: 409 SANDBOX_ONLY.
 */
export function cancelScheduledRoutes(backend: CustodyBackend) {
  return mount(
    new Hono<AppEnv>(),
    CONSOLE_API_PREFIX,
    cancelScheduledTransaction,
    async ({ params: { transactionId } }, c) => {
      if (!backend.cancelScheduled)
        throw new ApiError(
          409,
          ERROR_CODES.sandboxOnly,
          'The custody API offers no way to cancel a scheduled transfer; decline it while it waits for approval instead',
        );
      const member = c.get('staff');
      const by = member ? member.name : 'an API client';
      return backend.cancelScheduled(custodyContext(c), transactionId, by);
    },
  );
}
