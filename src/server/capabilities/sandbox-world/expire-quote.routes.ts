import { Hono } from 'hono';
import { ApiError } from '#contract/api-error.ts';
import { ERROR_CODES } from '#contract/common.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { expireSandboxRampQuote } from '#contract/endpoints/sandbox-world.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';

/**
 * A sandbox ramp's quote expired early (contract/endpoints/sandbox-world.ts),
 * so an approval's re-quote is tried without waiting out the quote's minute.
 * An admin's only, and only on a transaction in the admin's scope (read
 * through the scoped backend first: 404 outside it). Upstream, the provider
 * prices its own quotes: 409.
 */
export function sandboxQuoteRoutes(backend: CustodyBackend) {
  const app = new Hono<AppEnv>();
  mount(
    app,
    CONSOLE_API_PREFIX,
    expireSandboxRampQuote,
    async ({ params: { transactionId }, body }, c) => {
      const expire = backend.sandboxWorld ? backend.expireRampQuote : undefined;
      if (!expire)
        throw new ApiError(
          409,
          ERROR_CODES.sandboxOnly,
          'The console acts on an upstream custody service: its quotes are the provider’s to price and expire, not here (the sandbox only)',
        );
      const ctx = custodyContext(c);
      await backend.getTransaction(ctx, transactionId);
      return expire(ctx, transactionId, body.inSeconds ?? 0);
    },
    {
      audit: {
        summary: (answer) => `Sandbox ramp ${String(answer.id ?? '')}: its quote expires early`,
      },
    },
  );
  return app;
}
