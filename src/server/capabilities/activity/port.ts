import type { ActivityEvent, ActivityEventFilters } from '#contract/activity.ts';
import type { Page, PageRequest } from '#contract/common.ts';
import type { CustodyContext, ScopeFilter } from '../../custody/call-context.ts';

export type ActivityEventQuery = PageRequest & ActivityEventFilters & ScopeFilter;

/** The organization's activity log, as either backend answers it. */
export interface ActivityPort {
  listActivityEvents(ctx: CustodyContext, query: ActivityEventQuery): Promise<Page<ActivityEvent>>;
}

// The backend the routes speak to holds this port: each capability adds its
// own, so custody/backend.ts composes them without importing any capability.
declare module '../../custody/backend.ts' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merged into CustodyBackend
  interface CustodyBackend extends ActivityPort {}
}
