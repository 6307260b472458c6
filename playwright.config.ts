import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_PATH, quietFeatureArgs, type FeatureArgs } from './scripts/chromium-features.ts';

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// Playwright re-reads this file in every worker: the port and data directory
// are chosen once, in the main process, and handed down through the environment.
if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = String(await freePort());
  process.env.E2E_DATA_DIR = mkdtempSync(join(tmpdir(), 'custody-console-e2e-'));
  // A console in upstream mode on a second, sandbox console (e2e/upstream-pair.ts).
  process.env.E2E_UPSTREAM_PORT = String(await freePort());
  process.env.E2E_UPSTREAM_B_PORT = String(await freePort());
  process.env.E2E_CHROMIUM_FEATURES = JSON.stringify(
    await quietFeatureArgs(CHROMIUM_PATH, CHROMIUM_ARGS),
  );
}
const features = JSON.parse(process.env.E2E_CHROMIUM_FEATURES ?? '{}') as Partial<FeatureArgs>;
const port = Number(process.env.E2E_PORT);

/**
 * Whether this run includes the upstream project: its pair of consoles
 * (e2e/upstream-pair.ts) is started only then. A run of one chromium spec
 * (`--project chromium`) waited for three servers to start instead of one,
 * past two minutes on a loaded machine.
 */
function runsUpstream(argv: readonly string[]): boolean {
  const projects = argv.flatMap((arg, i) =>
    arg === '--project' ? [argv[i + 1] ?? ''] : arg.startsWith('--project=') ? [arg.slice(10)] : [],
  );
  return projects.length === 0 || projects.includes('upstream');
}
const baseURL = `http://127.0.0.1:${port}`;
const upstreamURL = `http://127.0.0.1:${process.env.E2E_UPSTREAM_PORT}`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

const browser = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    // Without the browser's own omnibox popup, a page of ~400 ms of CPU beside about half of
    // the stories' new contexts (scripts/chromium-features.ts).
    args: [...CHROMIUM_ARGS, ...(features.arg ? [features.arg] : [])],
    ignoreDefaultArgs: features.ignore ?? [],
  },
};

export default defineConfig({
  testDir: 'e2e',
  // Every worker's members (signed in) and world, made once before the first story (e2e/global-setup.ts).
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  workers: 2,
  // What a story may take in all, on a loaded machine: a story of 10 s quiet took past 30 s
  // with the machine shared by other jobs, and failed for time alone. Each wait inside is still
  // bounded by `expect`'s own timeout.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    baseURL,
    // No trace by default: recording one for every story (a DOM snapshot around each action)
    // cost a fifth of the run's CPU, in the workers and the browsers, to keep it for the rare
    // failed story. A failed story still leaves its screenshot and the page's accessibility
    // snapshot (error-context.md); to keep traces, run again with `--trace retain-on-failure`.
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'chromium', testIgnore: 'upstream.spec.ts', use: browser },
    // The main flows again, on the console in upstream mode.
    { name: 'upstream', testMatch: 'upstream.spec.ts', use: { ...browser, baseURL: upstreamURL } },
  ],
  webServer: [
    {
      // The server, with admins made by its CLI first, as an operator would (e2e/sandbox-server.ts).
      command: 'npx tsx e2e/sandbox-server.ts',
      url: `${baseURL}/healthz`,
      // A start is a CLI run and a server's on a fresh database: past two minutes when the
      // machine is shared, which failed the whole run before its first story.
      timeout: 300_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: process.env.E2E_DATA_DIR ?? '',
        SANDBOX_TIME_SCALE: '600',
        LOG_LEVEL: 'warn',
        // e2e/webhooks.spec.ts's receiver listens on 127.0.0.1 (refused by default: SSRF).
        WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
        // Stories sign in as each worker's own approvers and admins, not the
        // exempt demo members: the reminder to register a passkey would stand
        // on every page they show (the reminder's own tests are the server's).
        STAFF_PASSKEY_PROMPT: 'off',
      },
    },
    ...(runsUpstream(process.argv)
      ? [
          {
            command: 'npx tsx e2e/upstream-pair.ts',
            url: `${upstreamURL}/readyz`,
            timeout: 300_000,
            reuseExistingServer: false,
            stdout: 'pipe' as const,
            stderr: 'pipe' as const,
          },
        ]
      : []),
  ],
});
