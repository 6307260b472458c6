import { ActivityEventFilters, ActivityEventListResponse } from '../activity.ts';
import { endpoint } from '../endpoint.ts';

/** The organization's activity log (the SDKs' getActivityEvents). */
export const listActivityEvents = endpoint({
  method: 'GET',
  path: '/api/external/activity/events/',
  summary:
    'Who asked for each change, who approved or rejected it and when it took effect, newest first, keyset-paged; every filter optional.',
  action: 'read',
  permission: 'read',
  audit: false,
  query: ActivityEventFilters,
  paged: true,
  answer: ActivityEventListResponse,
});
