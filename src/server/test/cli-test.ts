import { pino } from 'pino';
import { test } from 'vitest';
import { runCli } from '../cli/run.ts';
import { loadConfig } from '../env.ts';
import { generateApiUserKeyPair } from '../protocol/ecdsa-keys.ts';
import { startServer } from '../server.ts';
import { createTestDatabaseConfig, type TestDatabaseConfig } from './test-database.ts';

/** What the CLI answered: its exit code and what it wrote. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run cli -- …args` in this process, over `env`, with `stdin` as what is typed. */
export async function runCliInProcess(
  args: string[],
  env: Record<string, string>,
  stdin = '',
): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readStdin: async () => stdin,
    env,
    cwd: process.cwd(),
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

/**
 * The CLI and a console server over one test database, in upstream mode
 * (staff live in the console's own tables, which need no sandbox).
 */
export interface CliHarness {
  storage: TestDatabaseConfig;
  /** The environment `npm run cli` and `npm start` would read. */
  env: Record<string, string>;
  /** `npm run cli -- …args`, with `stdin` as what is typed. */
  run(args: string[], stdin?: string): Promise<CliRun>;
  /**
   * A console server on the test database for the length of `use` (PGlite
   * lets one process open it at a time), its PGlite in this thread.
   */
  withServer<T>(use: (url: string) => Promise<T>): Promise<T>;
}

/** The CLI tests' Vitest fixture, made once per test file: `cliTest('…', async ({ cli }) => …)`. */
export const cliTest = test.extend(
  'cli',
  { scope: 'file' },
  // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from its first argument's pattern
  async ({}, { onCleanup }): Promise<CliHarness> => {
    const storage = await createTestDatabaseConfig();
    onCleanup(() => storage.cleanup());
    const env: Record<string, string> = {
      CUSTODY_BACKEND: 'upstream',
      CUSTODY_BASE_URL: 'https://custody.example.com',
      CUSTODY_API_KEY: 'key',
      CUSTODY_PRIVATE_KEY: generateApiUserKeyPair().privateKeyHex,
      LOG_LEVEL: 'silent',
      DATA_DIR: storage.dataDir,
      ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
    };
    return {
      storage,
      env,
      run: (args, stdin = '') => runCliInProcess(args, env, stdin),
      async withServer(use) {
        const config = {
          ...loadConfig({ ...env, PORT: '0', STATIC_DIR: '/nonexistent-spa' }),
          dataDir: storage.dataDir,
          databaseUrl: storage.databaseUrl,
        };
        // PGlite in this thread: these tests prove what the server reads of what the CLI
        // wrote; the server's own worker thread is server.test.ts's to prove.
        const server = await startServer(config, pino({ level: 'silent' }), {
          pgliteThread: 'this',
        });
        try {
          return await use(server.url);
        } finally {
          await server.close();
        }
      },
    };
  },
);
