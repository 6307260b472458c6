import { ActivityEventListResponse } from '#contract/activity.ts';
import { pathOf } from '#contract/endpoint.ts';
import { listActivityEvents } from '#contract/endpoints/activity.ts';
import type { UpstreamDeps } from '../../../custody/upstream/upstream-deps.ts';
import type { ActivityPort } from '../port.ts';

/** The activity log forwarded with its filters; a member's scope is applied to the answer (scope.ts). */
export function activityUpstream({ listPage }: Pick<UpstreamDeps, 'listPage'>): ActivityPort {
  return {
    listActivityEvents: (ctx, { limit, cursor, subOrgId: _one, subOrgIds: _many, ...filters }) =>
      listPage(ctx, ActivityEventListResponse, pathOf(listActivityEvents), filters, {
        limit,
        cursor,
      }),
  };
}
