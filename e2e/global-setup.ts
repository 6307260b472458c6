import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { request, type FullConfig } from '@playwright/test';
import { workerTag, type Cookies } from './worker-members.ts';
import { makeWorkerState } from './worker-setup.ts';
import { writeWorkerState } from './worker-state.ts';
import { signInSandboxRequest } from './sandbox-members.ts';
import { upstreamPairLog } from './upstream-members.ts';

/**
 * Before the first story, once for the run: each worker's sub-organization,
 * members (signed in) and world, made for every parallel index the run may
 * use, all at once, and kept where each worker finds its own
 * (e2e/worker-state.ts). A worker that made its own spent its first minute
 * or two on it while the other worker did the same, each sign-in a password
 * check the server runs one at a time; made here, the two CLI-made admins
 * sign in once for all of them, and each member signs in once, at its
 * set-up, for the whole run.
 */
export default async function globalSetup(
  config: FullConfig,
): Promise<(() => Promise<void>) | undefined> {
  await makeWorkerStates(config);
  // After the members and worlds, which the first story waits for; Playwright calls what the
  // set-up answers as the run's teardown.
  return runsProject(process.argv, 'upstream') ? startUpstreamPair() : undefined;
}

async function makeWorkerStates(config: FullConfig): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR;
  const port = process.env.E2E_PORT;
  // A run of the upstream project alone needs none of it.
  if (!dataDir || !port || !runsProject(process.argv, 'chromium')) return;
  const baseURL = `http://127.0.0.1:${port}`;
  const origin = new URL(baseURL).origin;
  const start = Date.now();
  const contexts: Array<Awaited<ReturnType<typeof request.newContext>>> = [];
  const newContext = async (cookies?: Cookies) => {
    const context = await request.newContext({
      baseURL,
      ...(cookies ? { storageState: { cookies, origins: [] } } : {}),
    });
    contexts.push(context);
    return context;
  };
  try {
    const maker = await newContext();
    const checker = await newContext();
    await signInSandboxRequest(maker, 'memberMaker', baseURL);
    await signInSandboxRequest(checker, 'memberChecker', baseURL);
    await Promise.all(
      Array.from({ length: config.workers }, async (_, parallelIndex) => {
        const state = await makeWorkerState({
          maker,
          checker,
          newContext,
          origin,
          tag: workerTag(parallelIndex),
        });
        writeWorkerState(parallelIndex, state);
      }),
    );
  } finally {
    for (const context of contexts) await context.dispose();
  }
  process.stdout.write(
    `global set-up: ${config.workers} workers' members and worlds in ${Date.now() - start} ms\n`,
  );
}

/** Whether the command line runs `project`: it names no project, or names it. */
function runsProject(argv: readonly string[], project: string): boolean {
  const projects = argv.flatMap((arg, i) =>
    arg === '--project' ? [argv[i + 1] ?? ''] : arg.startsWith('--project=') ? [arg.slice(10)] : [],
  );
  return projects.length === 0 || projects.includes(project);
}

/**
 * The upstream project's two consoles (e2e/upstream-pair.ts), started in the
 * background once the workers' members and worlds are made: its stories come
 * last in a full run and wait for it themselves (e2e/upstream.spec.ts).
 * Started as a web server, the pair held the global set-up, and so the first
 * story, back until both its consoles had migrated and started, twice the
 * main server's work. Answers how to stop it.
 */
function startUpstreamPair(): () => Promise<void> {
  const log = openSync(upstreamPairLog(process.env.E2E_DATA_DIR ?? ''), 'w');
  // A process group of its own (detached), so that stopping it reaches npx's children too.
  const pair = spawn('npx', ['tsx', 'e2e/upstream-pair.ts'], {
    detached: true,
    stdio: ['ignore', log, log],
    env: process.env,
  });
  closeSync(log);
  const exited = new Promise<void>((resolve) => {
    if (pair.exitCode !== null) resolve();
    else pair.once('exit', () => resolve());
  });
  return async () => {
    try {
      if (pair.pid !== undefined) process.kill(-pair.pid, 'SIGTERM');
    } catch {
      // Ended already.
    }
    await exited;
  };
}
