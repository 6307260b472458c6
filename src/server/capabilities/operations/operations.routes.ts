import { Hono } from 'hono';
import { operationMessageToSign, updateUserAction } from '#contract/endpoints/operations.ts';
import type { CustodyBackend } from '../../custody/backend.ts';
import { custodyContext } from '../../custody/context.ts';
import { mountCustody } from '../../custody/routes/parse-body.ts';
import type { AppEnv } from '../../http/app-env.ts';

/** An operation's user action: its message, and a vault signer's approval or refusal. */
export function operationRoutes(backend: CustodyBackend) {
  const app = new Hono<AppEnv>();
  mountCustody(app, operationMessageToSign, ({ params }, c) =>
    backend.getOperationMessage(custodyContext(c), params.operationId),
  );
  mountCustody(app, updateUserAction, ({ params, body }, c) =>
    backend.updateUserAction(custodyContext(c), params.operationId, body),
  );
  return app;
}
