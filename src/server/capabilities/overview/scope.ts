import type { CustodyBackend } from '../../custody/backend.ts';
import { scopeListQuery } from '../../console/scope-rules.ts';
import type { OverviewPort } from './port.ts';

/**
 * The overview's facts narrowed like a list (console/scope-rules.ts): a
 * restricted member's are their sub-organizations', one outside them is 404.
 * A backend without the read (upstream) gets none, so the unscoped inner one
 * can never pass through.
 */
export function overviewScope(inner: CustodyBackend): OverviewPort {
  const { overviewFacts } = inner;
  if (!overviewFacts) return {};
  return { overviewFacts: (ctx, query) => overviewFacts(ctx, scopeListQuery(ctx, query)) };
}
