import { fork } from 'node:child_process';
import { access } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { DatabaseConfig } from './db/client.ts';

/**
 * A first start on PGlite creates the database (initdb), migrates it and seeds
 * the sandbox. Done in the server's own process, that leaves PGlite's
 * WebAssembly heap at the size creating and seeding needed, and a WebAssembly
 * heap never shrinks: issue 14 measured 350–400 MB resident on a first start
 * against 220–230 MB on a restart over the same directory.
 * So main.ts runs that work in a short-lived child process, whose memory goes
 * back to the system when it exits, and then starts as a restart would.
 * PostgreSQL (DATABASE_URL) needs none of this.
 */

/** The argument that makes main.ts prepare the database and exit instead of serving. */
export const PREPARE_DATABASE_ARG = '--prepare-database';

/** Whether `config` names a PGlite directory that holds no database yet. */
export async function isNewPgliteDirectory(config: DatabaseConfig): Promise<boolean> {
  if (config.databaseUrl) return false;
  // Every PostgreSQL data directory has PG_VERSION from initdb on.
  return access(path.join(config.dataDir, 'PG_VERSION')).then(
    () => false,
    () => true,
  );
}

/**
 * Runs `entry PREPARE_DATABASE_ARG` in a child process with this process's
 * node flags and environment (so the same config), its log lines on the same
 * output, and waits for it to succeed.
 */
export function prepareInChildProcess(entry: string, logger: Logger): Promise<void> {
  logger.info('new data directory: creating and seeding the database in a child process');
  return new Promise((resolve, reject) => {
    const child = fork(entry, [PREPARE_DATABASE_ARG], { stdio: 'inherit' });
    // If this process is stopped meanwhile, the child must not go on holding the directory.
    const stop = () => child.kill('SIGTERM');
    process.once('exit', stop);
    child.once('error', (error) => {
      process.off('exit', stop);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      process.off('exit', stop);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            `preparing the database in a child process failed (${signal ?? `exit code ${code}`})`,
          ),
        );
    });
  });
}
