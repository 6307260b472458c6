import { Hono } from 'hono';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import {
  approvalSignatures,
  approvalSigningChallenge,
} from '#contract/endpoints/approval-signatures.ts';
import { custodyContext } from '../../../custody/context.ts';
import type { AppEnv } from '../../../http/app-env.ts';
import { mount } from '../../../http/mount.ts';
import { approvalCardOf } from '../card/card.ts';
import { signingChallengeFor, type SigningOptions } from './signed-decision.ts';
import { signaturesOf } from './signatures.store.ts';
import { verifiedSignatures } from './verify.ts';

/**
 * POST /api/console/approval_cards/{entityId}/challenge/ (what the member's
 * passkey signs) and GET /api/console/approval_signatures/{entityId}/ (every
 * stored decision checked again). Both read the item's card through the
 * scoped backend first: an item outside the member's scope is a 404.
 */
export function signingRoutes(options: SigningOptions) {
  const app = new Hono<AppEnv>();
  mount(app, CONSOLE_API_PREFIX, approvalSigningChallenge, ({ params, body }, c) =>
    signingChallengeFor(options, c, params.entityId, body),
  );
  return mount(app, CONSOLE_API_PREFIX, approvalSignatures, async ({ params }, c) => {
    const ctx = custodyContext(c);
    const { digest } = await approvalCardOf(
      {
        backend: options.backend,
        ctx,
        db: options.auth.db,
        clock: options.auth.clock,
        memberId: ctx.actor?.type === 'STAFF' ? ctx.actor.id : null,
      },
      params.entityId,
      options.kinds,
    );
    const rows = await signaturesOf(options.auth.db, [params.entityId]);
    return verifiedSignatures(params.entityId, digest, rows);
  });
}
