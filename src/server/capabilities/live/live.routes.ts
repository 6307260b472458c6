import { Hono } from 'hono';
import { ERROR_CODES } from '#contract/common.ts';
import { ApiError } from '#contract/api-error.ts';
import { liveEvents } from '#contract/endpoints/live.ts';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { inScope } from '../../console/scope-rules.ts';
import { custodyContext } from '../../custody/context.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { mount } from '../../http/mount.ts';
import { parseCursor, type LiveHub } from './hub.ts';

/**
 * `GET /api/console/events`: the signed-in member's event stream (hub.ts),
 * held to their sub-organizations as every read is (console/scope-rules.ts).
 * Text, not JSON: the compression middleware leaves it alone (it encodes
 * JSON answers only), and `X-Accel-Buffering: no` asks a proxy in front not
 * to hold it back either.
 */
export function liveRoutes(hub: LiveHub) {
  const app = new Hono<AppEnv>();
  mount(app, CONSOLE_API_PREFIX, liveEvents, (input, c) => {
    const given = c.req.header('Last-Event-ID') ?? input.query.lastEventId;
    const from = given ? parseCursor(given) : undefined;
    if (given && !from) {
      const field = c.req.header('Last-Event-ID') ? 'Last-Event-ID' : 'lastEventId';
      const message = `${field} must be an event id this stream sent (two numbers joined by "-", e.g. "120-4")`;
      throw new ApiError(400, ERROR_CODES.validation, message, [{ field, message }]);
    }
    const ctx = custodyContext(c);
    const body = hub.open(
      { visible: (subOrgId) => inScope(ctx, subOrgId), sessionId: c.get('session')?.id },
      from,
    );
    return Promise.resolve(
      new Response(body, {
        headers: {
          'Content-Type': 'text/event-stream; charset=utf-8',
          'X-Accel-Buffering': 'no',
        },
      }),
    );
  });
  return app;
}
