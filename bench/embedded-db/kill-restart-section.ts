import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_STAFF } from '../../src/server/auth/staff-demo.ts';
import { freePort } from '../compare/processes.ts';
import type { BenchSection } from '../section.ts';
import { sleep } from './traffic.ts';

/**
 * A restart right after a kill -9 must start. Each trial starts
 * the built console (`npm run serve`'s flags) on a fresh PGlite directory,
 * kills its whole process group with SIGKILL at a moment spread across the
 * first start (creating and seeding the database in a child process, then
 * serving), and restarts it at once on the same directory: a trial counts
 * when the restarted server answers /healthz and lists the seeded sandbox's
 * transactions.
 */

const TRIALS = 20;
/** Kill moments: trial i at FIRST_KILL_MS + i × KILL_STEP_MS after the start. */
const FIRST_KILL_MS = 200;
const KILL_STEP_MS = 600;
const START_TIMEOUT_MS = 180_000;

function serveArgs(): string[] {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { serve: string } };
  const args = /^node (.*?)\s*dist\/node\/server\/main\.js$/.exec(pkg.scripts.serve)?.[1] ?? '';
  return [...args.split(/\s+/).filter(Boolean), 'dist/node/server/main.js'];
}

function start(dataDir: string, port: number, logFile: string): ChildProcess {
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, serveArgs(), {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      STATIC_DIR: path.join(dataDir, '..', 'no-spa'),
    },
    stdio: ['ignore', fd, fd],
    // Its own process group: the kill takes the first-start child with it, as a supervisor's does.
    detached: true,
  });
  closeSync(fd);
  return child;
}

async function answers(base: string): Promise<boolean> {
  const res = await fetch(`${base}/healthz`).catch(() => undefined);
  return res?.ok ?? false;
}

/** Up and serving the seeded sandbox: the demo viewer lists transactions. */
async function serving(base: string): Promise<boolean> {
  const viewer = DEMO_STAFF.find((d) => d.role === 'viewer');
  if (!viewer) return false;
  const signedIn = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: viewer.email, password: viewer.password }),
  });
  const cookie = signedIn.headers.get('set-cookie')?.split(';')[0];
  if (!signedIn.ok || !cookie) return false;
  const list = await fetch(`${base}/api/external/transactions/?limit=5`, { headers: { cookie } });
  if (!list.ok) return false;
  const { results } = (await list.json()) as { results: unknown[] };
  return results.length === 5;
}

function killGroup(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    if (child.pid) process.kill(-child.pid, 'SIGKILL');
  });
}

export interface TrialFigures {
  killedAfterMs: number;
  /** Whether the first server was already answering when it was killed. */
  wasServing: boolean;
  started: boolean;
  restartSeconds: number;
  failure?: string;
}

export const killRestartSection: BenchSection = {
  name: 'kill-restart',
  about: `kill -9 then an immediate restart, ${TRIALS} times on a fresh PGlite directory: how many start`,
  async run({ build, progress }) {
    if (build) {
      progress('building (npm run build)…');
      execFileSync('npm', ['run', '-s', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
    const work = await mkdtemp(path.join(tmpdir(), 'bench-kill-restart-'));
    await mkdir(path.join(work, 'no-spa'));
    const trials: TrialFigures[] = [];
    try {
      for (let i = 0; i < TRIALS; i += 1) {
        const dataDir = path.join(work, `data-${i}`);
        const logFile = path.join(work, `trial-${i}.log`);
        const port = await freePort();
        const base = `http://127.0.0.1:${port}`;
        const killedAfterMs = FIRST_KILL_MS + i * KILL_STEP_MS;
        const first = start(dataDir, port, logFile);
        await sleep(killedAfterMs);
        const wasServing = await answers(base);
        await killGroup(first);
        const restartedAt = performance.now();
        const second = start(dataDir, port, logFile);
        let exited: string | undefined;
        second.once('exit', (code, signal) => (exited = `exited ${code ?? signal}`));
        let started = false;
        while (!exited && performance.now() - restartedAt < START_TIMEOUT_MS) {
          if (await answers(base)) {
            started = await serving(base);
            break;
          }
          await sleep(200);
        }
        const restartSeconds = (performance.now() - restartedAt) / 1000;
        const failure = started
          ? undefined
          : `${exited ?? 'no answer'}: ${readFileSync(logFile, 'utf8').split('\n').filter(Boolean).slice(-3).join(' | ').slice(0, 400)}`;
        trials.push({
          killedAfterMs,
          wasServing,
          started,
          restartSeconds,
          ...(failure ? { failure } : {}),
        });
        progress(
          `  trial ${i + 1}: killed at ${killedAfterMs} ms (${wasServing ? 'serving' : 'first start'}), restart ${started ? `started in ${restartSeconds.toFixed(1)} s` : `FAILED (${failure})`}`,
        );
        await killGroup(second);
        await rm(dataDir, { recursive: true, force: true });
      }
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    const startedCount = trials.filter((t) => t.started).length;
    const text = [
      `${TRIALS} trials, each a fresh PGlite directory killed (SIGKILL, whole process group) ${FIRST_KILL_MS}–${FIRST_KILL_MS + (TRIALS - 1) * KILL_STEP_MS} ms after the start, then restarted at once:`,
      `  ${startedCount} of ${TRIALS} restarts started and served the seeded sandbox ` +
        `(${trials.filter((t) => !t.wasServing).length} killed during the first start); restart took ${Math.min(...trials.map((t) => t.restartSeconds)).toFixed(1)}–${Math.max(...trials.map((t) => t.restartSeconds)).toFixed(1)} s`,
      ...trials
        .filter((t) => t.failure)
        .map((t) => `  failed after a kill at ${t.killedAfterMs} ms: ${t.failure}`),
      '  goal: 20 of 20',
    ].join('\n');
    return { text, data: { trials } };
  },
};
