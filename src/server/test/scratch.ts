import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/**
 * The directories and child processes a test file makes, for tests of a
 * started console (a data directory, a spawned server): after the file's
 * last test, every child still running is killed and every directory
 * removed. Call once at the file's top level.
 */
export function scratch(prefix: string) {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });
  return {
    /** A new empty directory of this file's. */
    async newDir(): Promise<string> {
      const dir = await mkdtemp(path.join(tmpdir(), prefix));
      dirs.push(dir);
      return dir;
    },
    /** Kept, to be killed after the last test if it still runs. */
    track<T extends ChildProcess>(child: T): T {
      children.push(child);
      return child;
    },
  };
}
