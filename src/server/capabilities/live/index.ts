import type { Logger } from 'pino';
import type { Clock } from '../../clock.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { approvalEventSource } from './approval-source.ts';
import { custodyEventSource } from './custody-source.ts';
import { LiveHub, type LiveHubOptions } from './hub.ts';
import { sandboxChangeRequestSource } from './sandbox/change-request-source.ts';
import { sandboxStatusSource } from './sandbox/status-source.ts';

export { LiveHub } from './hub.ts';
export { createCustodyEventSink, type CustodyEventSink } from './sink.ts';

/**
 * A server's event-stream hub (hub.ts) over the logs its mode has: in
 * sandbox mode the sandbox's own records of status changes and of bank
 * accounts' and contacts' change requests; in both, the stored webhook
 * events and the console's approval events (votes; upstream, proposals and
 * decisions made through the console).
 */
export function createLiveHub(
  options: {
    backend: 'sandbox' | 'upstream';
    database: Pick<DatabaseHandle, 'db' | 'listen'>;
    clock: Clock;
    logger: Logger;
    /** The sandbox organization the console serves; the oldest unless given. */
    orgId?: string;
  } & Omit<LiveHubOptions, 'sources' | 'database' | 'clock' | 'logger'>,
): LiveHub {
  const { backend, orgId, ...rest } = options;
  const { db } = options.database;
  return new LiveHub({
    ...rest,
    sources: [
      backend === 'sandbox' ? sandboxStatusSource(db, orgId) : undefined,
      custodyEventSource(db),
      backend === 'sandbox' ? sandboxChangeRequestSource(db, orgId) : undefined,
      approvalEventSource(db),
    ],
  });
}
