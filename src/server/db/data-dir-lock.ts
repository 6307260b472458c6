import { link, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * PGlite opens its directory without any lock of its own: a second process
 * opening it (a CLI command while the server runs, a second server) would
 * silently write over the first one's pages. This lock file names the
 * process holding the directory; it is taken on open and removed on close.
 * A file left by a process that no longer runs (kill -9, a crash) is stale
 * and is taken over.
 */

const LOCK_FILE = 'custody-console.lock';

export class DataDirLockedError extends Error {
  override name = 'DataDirLockedError';
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dataDir} is in use by another process (pid ${pid}), probably a running console server. ` +
        'The embedded database (PGlite) can be opened by one process at a time: stop that process and try again, ' +
        'or use PostgreSQL (DATABASE_URL), which any number of processes can share.',
    );
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the directory's lock; resolves to the function that releases it. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, LOCK_FILE);
  // Wall time for a person reading the lock; nothing compares it, so it needs no injected clock.
  const content = `${JSON.stringify({ pid: process.pid, at: new Date().toISOString() })}\n`;
  // Written whole under a private name, then linked into place: link() fails
  // if the lock exists, so of two racing processes one wins, and nobody ever
  // reads a half-written lock.
  const draft = `${file}.${process.pid}.draft`;
  await writeFile(draft, content);
  try {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      try {
        await link(draft, file);
        let released = false;
        // Once only: a second close must not remove a lock someone else took since.
        return async () => {
          if (released) return;
          released = true;
          await rm(file, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = await readHolder(file);
      // Our own pid counts too: one process must not open the directory twice.
      if (holder !== undefined && isRunning(holder)) throw new DataDirLockedError(dataDir, holder);
      await rm(file, { force: true });
    }
  } finally {
    await rm(draft, { force: true });
  }
  throw new Error(`Could not take the lock ${file}; remove it if no console process is running`);
}

async function readHolder(file: string): Promise<number | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as { pid?: unknown };
    return typeof parsed.pid === 'number' && Number.isInteger(parsed.pid) && parsed.pid > 0
      ? parsed.pid
      : undefined;
  } catch {
    // Unreadable: no process we could ask about, so stale.
    return undefined;
  }
}
