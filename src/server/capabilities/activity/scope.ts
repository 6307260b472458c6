import type { CustodyBackend } from '../../custody/backend.ts';
import { keepInScope, scopeListQuery } from '../../console/scope-rules.ts';
import type { ActivityPort } from './port.ts';

/**
 * A member held to sub-organizations reads only the events of their
 * entities (console/scope-rules.ts): the query is narrowed to them, and an
 * event whose entity names no sub-organization of theirs is dropped, so an
 * upstream answer that carries none shows them nothing rather than too much.
 * An API user held to sub-organizations is held alike.
 */
export function activityScope(inner: CustodyBackend): ActivityPort {
  return {
    listActivityEvents: async (ctx, q) =>
      keepInScope(ctx, await inner.listActivityEvents(ctx, scopeListQuery(ctx, q))),
  };
}
