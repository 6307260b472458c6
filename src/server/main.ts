import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './env.ts';
import {
  isNewPgliteDirectory,
  prepareInChildProcess,
  PREPARE_DATABASE_ARG,
} from './first-start.ts';
import { createLogger } from './logger.ts';
import { prepareDatabase, startServer } from './server.ts';

/**
 * `npm run serve` / `npm start`: read the config, start, and stop cleanly on
 * SIGTERM or SIGINT (stop accepting, finish in-flight requests, close the
 * database so PGlite flushes and releases its directory, then exit).
 */

// A request that never ends must not keep a stopping server alive for ever.
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const logger = createLogger(config.logLevel);
  if (process.argv.includes(PREPARE_DATABASE_ARG)) {
    // The server that forked this one is gone (killed): stop too, rather than hold the
    // directory's lock against its restart. The first start's mark makes the next begin again.
    const orphaned = () => process.exit(1);
    process.once('disconnect', orphaned);
    await prepareDatabase(config, logger);
    process.off('disconnect', orphaned);
    return;
  }
  // A new PGlite directory is created and seeded in a child process (first-start.ts).
  if (await isNewPgliteDirectory(config))
    await prepareInChildProcess(fileURLToPath(import.meta.url), logger);
  const server = await startServer(config, logger);
  logger.info(
    { url: server.url, backend: config.custody.backend },
    `Custody Console listening on ${server.url}`,
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    server.close().then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'error while shutting down');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Custody Console failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
