import { readFileSync } from 'node:fs';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * PGlite opens its directory without any lock of its own: a second process
 * opening it (a CLI command while the server runs, a second server) would
 * silently write over the first one's pages. This lock file names the
 * process holding the directory; it is taken on open and removed on close.
 * A file left by a process that no longer runs (kill -9, a crash) is stale
 * and is taken over. "Runs" is asked of the kernel (`/proc/<pid>/stat` on
 * Linux): a process that is gone, a zombie (killed, not yet reaped: a
 * first-start child killed with its parent stays one until init reaps it,
 * and `kill(pid, 0)` still succeeds on it), or a process that
 * started at another time than the one that wrote the lock (its pid reused,
 * as a container's restarted server often gets its old pid) holds nothing.
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

interface ProcStat {
  state: string;
  /** Clock ticks after boot when the process started. */
  startTime: string;
}

/** The kernel's word on a process (Linux); undefined where /proc cannot say. */
function procStat(pid: number | 'self'): ProcStat | null | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No such entry: no such process (when /proc itself is there).
    return code === 'ENOENT' && pid !== 'self' && procStat('self') !== undefined ? null : undefined;
  }
  // After the command name, which is in parentheses and may hold anything.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0];
  const startTime = fields[19];
  return state && startTime ? { state, startTime } : undefined;
}

/** This process's start, as the lock records it (absent where /proc cannot say). */
const OWN_START = procStat('self')?.startTime;

/**
 * Whether the process that wrote a lock naming `pid` (started at
 * `startTime`, when the lock says) still runs.
 */
export function isRunning(pid: number, startTime?: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else; ESRCH: gone.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(pid);
  if (stat === undefined) return true;
  if (stat === null) return false;
  // Z: a zombie, dead but not yet reaped; X: dead.
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return startTime === undefined || stat.startTime === startTime;
}

/** Takes the directory's lock; resolves to the function that releases it. */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, LOCK_FILE);
  // Wall time for a person reading the lock; nothing compares it, so it needs no injected clock.
  const content = `${JSON.stringify({ pid: process.pid, startTime: OWN_START, at: new Date().toISOString() })}\n`;
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
      if (holder !== undefined && isRunning(holder.pid, holder.startTime))
        throw new DataDirLockedError(dataDir, holder.pid);
      await rm(file, { force: true });
    }
  } finally {
    await rm(draft, { force: true });
  }
  throw new Error(`Could not take the lock ${file}; remove it if no console process is running`);
}

async function readHolder(file: string): Promise<{ pid: number; startTime?: string } | undefined> {
  try {
    const parsed = JSON.parse(await readFile(file, 'utf8')) as {
      pid?: unknown;
      startTime?: unknown;
    };
    if (typeof parsed.pid !== 'number' || !Number.isInteger(parsed.pid) || parsed.pid <= 0)
      return undefined;
    // Locks written before the start time was recorded name a pid only.
    return typeof parsed.startTime === 'string'
      ? { pid: parsed.pid, startTime: parsed.startTime }
      : { pid: parsed.pid };
  } catch {
    // Unreadable: no process we could ask about, so stale.
    return undefined;
  }
}
