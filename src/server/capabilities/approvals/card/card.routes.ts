import { Hono } from 'hono';
import { CONSOLE_API_PREFIX } from '#contract/endpoint.ts';
import { previewApprovalCard } from '#contract/endpoints/approval-card-preview.ts';
import { approvalCard } from '#contract/endpoints/approval-cards.ts';
import type { AuthOptions } from '../../../auth/session-auth.ts';
import type { CustodyBackend } from '../../../custody/backend.ts';
import { custodyContext } from '../../../custody/context.ts';
import type { AppEnv } from '../../../http/app-env.ts';
import { mount } from '../../../http/mount.ts';
import { approvalCardOf, previewCardOf } from './card.ts';
import type { ApprovableKind, CardContext } from '../core/kind.ts';

/**
 * GET /api/console/approval_cards/{entityId}/ and POST …/preview/: the
 * approval card of an item, and of a draft. The backend given is the scoped
 * one (with the approval policies), so an item outside the member's
 * sub-organizations is a 404, as its own read, and a draft is judged as its
 * create will be.
 */
export function approvalCardRoutes(
  options: AuthOptions,
  backend: CustodyBackend,
  kinds: readonly ApprovableKind[],
) {
  const app = new Hono<AppEnv>();
  const contextOf = (c: Parameters<typeof custodyContext>[0]): CardContext => {
    const ctx = custodyContext(c);
    return {
      backend,
      ctx,
      db: options.db,
      clock: options.clock,
      memberId: ctx.actor?.type === 'STAFF' ? ctx.actor.id : null,
    };
  };
  // Mounted before the item's path, so "preview" is never read as an id.
  mount(app, CONSOLE_API_PREFIX, previewApprovalCard, ({ body }, c) =>
    previewCardOf(contextOf(c), body),
  );
  return mount(app, CONSOLE_API_PREFIX, approvalCard, ({ params }, c) =>
    approvalCardOf(contextOf(c), params.entityId, kinds),
  );
}
