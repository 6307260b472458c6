import { fork } from 'node:child_process';
import { access, open, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { DatabaseConfig } from './db/client.ts';

/**
 * A first start on PGlite creates the database (initdb), migrates it and seeds
 * the sandbox. Done in the server's own process, that leaves PGlite's
 * WebAssembly heap at the size creating and seeding needed, and a WebAssembly
 * heap never shrinks: 350–400 MB resident was measured on a first start
 * against 220–230 MB on a restart over the same directory.
 * So main.ts runs that work in a short-lived child process, whose memory goes
 * back to the system when it exits, and then starts as a restart would.
 * PostgreSQL (DATABASE_URL) needs none of this.
 */

/** The argument that makes main.ts prepare the database and exit instead of serving. */
export const PREPARE_DATABASE_ARG = '--prepare-database';

/**
 * Left in the directory while a first start creates and seeds it, removed
 * once that is done. A first start killed half way (a kill -9 and an
 * immediate restart) may have written PG_VERSION and part of the database: without
 * this mark the next start would open that part as a database and never
 * start again. With it, the next start knows the directory is its own,
 * unfinished work, and begins it again.
 */
export const FIRST_START_MARK = 'custody-console.first-start';
/** The lock file (db/data-dir-lock.ts) and its drafts: never removed here. */
const LOCK_PREFIX = 'custody-console.lock';

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/**
 * Whether `config` names a PGlite directory that holds no database yet, or
 * one whose first start did not finish.
 */
export async function isNewPgliteDirectory(config: DatabaseConfig): Promise<boolean> {
  if (config.databaseUrl) return false;
  // Every PostgreSQL data directory has PG_VERSION from initdb on.
  if (!(await exists(path.join(config.dataDir, 'PG_VERSION')))) return true;
  return exists(path.join(config.dataDir, FIRST_START_MARK));
}

/**
 * Before a first start opens the directory, holding its lock: a directory
 * a first start left unfinished is emptied (all but the lock), and the mark
 * is written, to the disk, before anything else. A directory another start
 * finished meanwhile is left as it is.
 */
export async function beginFirstStart(dataDir: string): Promise<void> {
  const mark = path.join(dataDir, FIRST_START_MARK);
  const unfinished = await exists(mark);
  if (!unfinished && (await exists(path.join(dataDir, 'PG_VERSION')))) return;
  if (unfinished)
    for (const entry of await readdir(dataDir))
      if (entry !== FIRST_START_MARK && !entry.startsWith(LOCK_PREFIX))
        await rm(path.join(dataDir, entry), { recursive: true, force: true });
  const file = await open(mark, 'w');
  try {
    await file.writeFile(
      'a first start is creating this database; if no process runs, the next start begins again\n',
    );
    await file.sync();
  } finally {
    await file.close();
  }
}

/** After a first start's database is created, migrated, seeded and closed. */
export async function finishFirstStart(dataDir: string): Promise<void> {
  await rm(path.join(dataDir, FIRST_START_MARK), { force: true });
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
