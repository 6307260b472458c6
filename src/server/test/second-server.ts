import path from 'node:path';
import { pino } from 'pino';
import { createApp, type App } from '../app.ts';
import { createSandboxBackend } from '../wiring/sandbox-backend.ts';
import type { Clock } from '../clock.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { TestApp } from './test-app.ts';
import { openSecondHandle } from './test-database.ts';

/**
 * A second console on `t`'s database, as a second server would run: a
 * database handle of its own (its own pool on PostgreSQL), the same
 * organization and the same clock. Close it before `t`.
 */
export function secondServer(
  t: Pick<TestApp, 'database' | 'orgId'> & { clock: Clock },
  options: { trustProxy?: boolean } = {},
): { app: App; handle: DatabaseHandle; close(): Promise<void> } {
  const handle = openSecondHandle(t.database);
  const app = createApp({
    config: { staticDir: path.join(process.cwd(), '.tmp', 'no-spa-here') },
    backend: createSandboxBackend({ db: handle.db, orgId: t.orgId }),
    database: handle,
    logger: pino({ level: 'silent' }),
    auth: {
      db: handle.db,
      clock: t.clock,
      ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
    },
  });
  return { app, handle, close: () => handle.close() };
}
