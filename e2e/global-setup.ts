import { request, type FullConfig } from '@playwright/test';
import { workerTag, type Cookies } from './worker-members.ts';
import { makeWorkerState } from './worker-setup.ts';
import { writeWorkerState } from './worker-state.ts';
import { signInSandboxRequest } from './sandbox-members.ts';

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
export default async function globalSetup(config: FullConfig): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR;
  const port = process.env.E2E_PORT;
  // A run of the upstream project alone needs none of it.
  if (!dataDir || !port || !runsChromium(process.argv)) return;
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

/** Whether the command line runs the chromium project: it names none, or names it. */
function runsChromium(argv: readonly string[]): boolean {
  const projects = argv.flatMap((arg, i) =>
    arg === '--project' ? [argv[i + 1] ?? ''] : arg.startsWith('--project=') ? [arg.slice(10)] : [],
  );
  return projects.length === 0 || projects.includes('chromium');
}
