import type { Logger } from 'pino';
import type { Clock } from '../../clock.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { custodyEventSource } from './custody-source.ts';
import { LiveHub, type LiveHubOptions } from './hub.ts';
import { sandboxStatusSource } from './sandbox/status-source.ts';

export { LiveHub } from './hub.ts';
export { createCustodyEventSink, type CustodyEventSink } from './sink.ts';

/**
 * A server's event-stream hub (hub.ts) over the logs its mode has: in
 * sandbox mode the sandbox's own record of status changes and the stored
 * webhook events; upstream, the stored webhook events alone.
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
    ],
  });
}
