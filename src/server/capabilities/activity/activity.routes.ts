import { Hono } from 'hono';
import { listActivityEvents } from '#contract/endpoints/activity.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import { mountCustody } from '../../custody/routes/parse-body.ts';
import type { AppEnv } from '../../http/app-env.ts';

/** The activity log's custody endpoint. */
export function activityRoutes(backend: CustodyBackend) {
  const app = new Hono<AppEnv>();
  mountCustody(app, listActivityEvents, ({ query }, c) =>
    backend.listActivityEvents(custodyContext(c), query),
  );
  return app;
}
