import * as z from 'zod/mini';
import { endpoint } from '../endpoint.ts';
import { LiveEvent } from '../live-events.ts';

/** Live updates: one server-sent-events stream per tab (contract/live-events.ts). */

export const liveEvents = endpoint({
  method: 'GET',
  path: '/api/console/events',
  summary:
    'A text/event-stream of status changes of the transactions in your sub-organizations; send Last-Event-ID to resume.',
  action: 'follow live updates',
  permission: 'read',
  audit: false,
  // For a browser opening a new EventSource (which cannot set headers): the id it last received.
  query: z.object({ lastEventId: z.optional(z.string()) }),
  // Each `change` event's data; the answer itself is a stream of them.
  answer: LiveEvent,
});
