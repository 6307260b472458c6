import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { pino } from 'pino';
import { openDatabase } from '../src/server/db/client.ts';
import { loadConfig, type AppConfig } from '../src/server/env.ts';
import { startServer, type RunningServer } from '../src/server/server.ts';
import {
  createTestDatabaseConfig,
  type TestDatabaseConfig,
} from '../src/server/test/test-database.ts';
import { insertBenchTransactions } from './million-rows.ts';
import type { WorkerCommand, WorkerReply } from './server-host.ts';

/**
 * The console server under test, in its own thread: the real startServer on
 * a fresh database, so the load generator on the main thread does not share
 * an event loop (or a core) with the server it measures. Everything that
 * touches the database happens here — preparing it, the bulk insert (while
 * the server is stopped: PGlite has one owner), removing it — so the main
 * thread's memory is the load generator's alone.
 */

const port = parentPort;
if (!port) throw new Error('bench/server-worker.ts runs as a worker thread');

// Warnings and errors only: a request log line per request would measure pino, not the server.
const logger = pino({ level: 'warn' }, pino.destination({ fd: 2, sync: true }));
let storage: TestDatabaseConfig | undefined;
let config: AppConfig | undefined;
let server: RunningServer | undefined;

function prepared(): AppConfig {
  if (!config) throw new Error('prepare the database first');
  return config;
}

async function handle(command: WorkerCommand): Promise<WorkerReply> {
  switch (command.cmd) {
    case 'prepare':
      // A temporary PGlite directory from the migrated template, or a scratch database on DATABASE_URL's server.
      storage ??= await createTestDatabaseConfig();
      config = loadConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: storage.dataDir,
        DATABASE_URL: storage.databaseUrl,
        LOG_LEVEL: 'warn',
        STATIC_DIR: path.join('.tmp', 'bench-no-spa'),
      });
      return { ok: true, driver: config.databaseUrl ? 'postgres' : 'pglite' };
    case 'cleanup':
      await server?.close();
      server = undefined;
      await storage?.cleanup();
      storage = undefined;
      return { ok: true };
    case 'start':
      server ??= await startServer(prepared(), logger);
      return { ok: true, url: server.url };
    case 'stop':
      await server?.close();
      server = undefined;
      return { ok: true };
    case 'insert': {
      if (server) throw new Error('stop the server before the bulk insert');
      const database = await openDatabase(prepared());
      try {
        const timing = await insertBenchTransactions(database.db, command);
        return { ok: true, timing };
      } finally {
        await database.close();
      }
    }
    case 'memory':
      return { ok: true, memory: process.memoryUsage() };
  }
}

port.on('message', (command: WorkerCommand) => {
  handle(command).then(
    (reply) => port.postMessage(reply),
    (error: unknown) =>
      port.postMessage({
        ok: false,
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      }),
  );
});
