import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { scratch } from '../test/scratch.ts';
import { DataDirLockedError, isRunning, lockDataDir } from './data-dir-lock.ts';

const LOCK_FILE = 'custody-console.lock';
const { newDir, track } = scratch('custody-lock-');

function stateOf(pid: number): string | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/** A lock file as another process would have left it. */
async function leaveLock(dir: string, holder: Record<string, unknown>): Promise<void> {
  await writeFile(path.join(dir, LOCK_FILE), `${JSON.stringify(holder)}\n`);
}

/**
 * A zombie: `sh` starts a child and then becomes `sleep`, which never reaps
 * it; the child exits 2 s later and stays a zombie until the sleep ends. A
 * child that exited at once could be reaped by the shell before its `exec`
 * (seen under load: the pid was gone, never a zombie).
 */
async function zombie(): Promise<number> {
  const parent = spawn('sh', ['-c', 'sleep 2 & echo $!; exec sleep 60'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  track(parent);
  const pid = await new Promise<number>((resolve) =>
    parent.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString().trim()))),
  );
  // The kernel's state is the only event there is.
  await vi.waitFor(() => expect(stateOf(pid)).toBe('Z'), { timeout: 10_000, interval: 10 });
  return pid;
}

describe('the data-directory lock', () => {
  it('is refused while the process named in it runs', async () => {
    const dir = await newDir();
    const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
    track(holder);
    const pid = holder.pid ?? 0;
    await leaveLock(dir, { pid });
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    holder.kill('SIGKILL');
  });

  it('takes over a lock whose process is a zombie (killed, not yet reaped)', async () => {
    const dir = await newDir();
    const pid = await zombie();
    // kill(pid, 0) succeeds on a zombie: that alone called it running.
    expect(() => process.kill(pid, 0)).not.toThrow();
    expect(isRunning(pid)).toBe(false);
    await leaveLock(dir, { pid });
    const unlock = await lockDataDir(dir);
    expect(JSON.parse(await readFile(path.join(dir, LOCK_FILE), 'utf8'))).toMatchObject({
      pid: process.pid,
    });
    await unlock();
  });

  it('takes over a lock whose process is gone', async () => {
    const dir = await newDir();
    const gone = spawn('true', { stdio: 'ignore' });
    const pid = gone.pid ?? 0;
    await new Promise((resolve) => gone.once('exit', resolve));
    await leaveLock(dir, { pid });
    const unlock = await lockDataDir(dir);
    await unlock();
  });

  it('takes over a lock naming this process at another start (its pid reused), not its own', async () => {
    const dir = await newDir();
    await leaveLock(dir, { pid: process.pid, startTime: '1' });
    const unlock = await lockDataDir(dir);
    // Held by this very process now: a second open is refused.
    await expect(lockDataDir(dir)).rejects.toBeInstanceOf(DataDirLockedError);
    await unlock();
  });
});
