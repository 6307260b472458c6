import { Hono } from 'hono';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { decideApprovable } from '#contract/endpoints/approvables.ts';
import type { AppEnv } from '../../../http/app-env.ts';
import { mount } from '../../../http/mount.ts';
import { DECISION_AUDIT } from '../approvals.routes.ts';
import type { SigningOptions } from '../signing/signed-decision.ts';
import { decideHeld } from './held.ts';

/**
 * POST /api/console/approvables/{entityId}/decision/: the decision on an item
 * of a kind the console holds itself (held.ts), audited as every decision is.
 */
export function heldDecisionRoutes(options: SigningOptions) {
  const app = new Hono<AppEnv>();
  return mount(
    app,
    CONSOLE_API_PREFIX,
    decideApprovable,
    ({ params, body }, c) => decideHeld(options, c, params.entityId, body),
    { audit: DECISION_AUDIT },
  );
}
