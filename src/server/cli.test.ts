import { execFile } from 'node:child_process';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paths } from '#contract/paths.ts';
import { signRequestToken } from './protocol/api-token.ts';
import { generateApiUserKeyPair } from './protocol/ecdsa-keys.ts';
import { runCliInProcess } from './test/cli-test.ts';
import { loadConfig } from './env.ts';
import { startServer } from './server.ts';
import { createTestDatabaseConfig, type TestDatabaseConfig } from './test/test-database.ts';

// Storage nobody has used: a migrated but empty PGlite directory (a cold PGlite
// start would cost the test several seconds more) or a new PostgreSQL database.
// The CLI seeds it, as it would a brand-new DATA_DIR.
let storage: TestDatabaseConfig;
beforeAll(async () => {
  storage = await createTestDatabaseConfig();
});
afterAll(() => storage.cleanup());

function storageEnv(): Record<string, string> {
  const env: Record<string, string> = { DATA_DIR: storage.dataDir, LOG_LEVEL: 'silent' };
  if (storage.databaseUrl) env.DATABASE_URL = storage.databaseUrl;
  return env;
}

/** `npm run cli -- …` as a child process, with a clean environment. */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { DATABASE_URL: _url, DATA_DIR: _dir, ...env } = process.env;
  return new Promise((resolve) => {
    execFile(
      path.join('node_modules', '.bin', 'tsx'),
      ['src/server/cli.ts', ...args],
      { env: { ...env, ...storageEnv() }, timeout: 110_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** The CLI in process, for argument handling that never reaches the database. */
function inProcess(args: string[], env: Record<string, string> = storageEnv()) {
  return runCliInProcess(args, env);
}

describe('npm run cli -- api-users create', () => {
  it(
    'prints one JSON line whose key signs requests the server accepts; refuses while the server holds PGlite',
    { timeout: 120_000 },
    async () => {
      const created = await cli(['api-users', 'create', '--name', 'ci bot']);
      expect(created.code, created.stderr).toBe(0);
      const lines = created.stdout.split('\n').filter((l) => l !== '');
      expect(lines).toHaveLength(1);
      const credentials = JSON.parse(lines[0] ?? '') as Record<string, string>;
      expect(Object.keys(credentials)).toEqual(['apiKey', 'privateKeyHex']);
      expect(credentials.privateKeyHex).toMatch(/^[0-9a-f]+$/);
      expect(created.stderr).toMatch(/Created API user "ci bot"/);
      expect(created.stderr).not.toContain(credentials.privateKeyHex);

      const config = {
        ...loadConfig({ PORT: '0', LOG_LEVEL: 'silent', STATIC_DIR: '/nonexistent-spa' }),
        dataDir: storage.dataDir,
        databaseUrl: storage.databaseUrl,
      };
      const server = await startServer(config, pino({ level: 'silent' }));
      try {
        const url = paths.bankAccounts();
        const token = signRequestToken({
          apiKey: credentials.apiKey ?? '',
          privateKey: credentials.privateKeyHex ?? '',
          urlPath: url,
        });
        const res = await fetch(`${server.url}${url}`, {
          headers: { 'Api-Key': credentials.apiKey ?? '', Authorization: `Bearer ${token}` },
        });
        expect(res.status, await res.clone().text()).toBe(200);
        // The CLI seeded the fresh sandbox, so the API user sees its bank accounts.
        expect(((await res.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);

        if (!storage.databaseUrl) {
          const locked = await cli(['api-users', 'create', '--name', 'second']);
          expect(locked.code).toBe(1);
          expect(locked.stdout).toBe('');
          expect(locked.stderr).toMatch(
            /in use by another process \(pid \d+\).*stop that process/s,
          );
        }
      } finally {
        await server.close();
      }
    },
  );
});

describe('cli arguments', () => {
  it.each([
    [[], /Usage: npm run cli -- <command>/],
    [['nope'], /Unknown command "nope"/],
    [['api-users'], /api-users create/],
    [['api-users', 'delete'], /Unknown command "api-users delete"/],
    [
      ['api-users', 'create'],
      /--name NAME is required[\s\S]*Usage: npm run cli -- api-users create --name NAME/,
    ],
    [['api-users', 'create', '--name', '  '], /--name must not be empty/],
    [['api-users', 'create', '--name', 'x', '--colour', 'red'], /Unknown option '--colour'/],
    [['api-users', 'create', '--name', 'x', 'extra'], /Unexpected argument 'extra'/],
    [['api-users', 'create', '--name', 'x', '--sub-orgs', 'a,,b'], /--sub-orgs must list/],
  ])('%j is a usage error: exit 2, the reason and the usage on stderr', async (args, pattern) => {
    const res = await inProcess(args);
    expect(res).toMatchObject({ code: 2, stdout: '' });
    expect(res.stderr).toMatch(pattern);
  });

  it.each([[['--help']], [['api-users', '--help']], [['api-users', 'create', '--help']]])(
    '%j prints help on stdout and exits 0',
    async (args) => {
      const res = await inProcess(args);
      expect(res).toMatchObject({ code: 0, stderr: '' });
      expect(res.stdout).toMatch(/api-users create/);
    },
  );

  it('refuses api-users in upstream mode, where there is no sandbox: exit 1', async () => {
    const res = await inProcess(['api-users', 'create', '--name', 'x'], {
      CUSTODY_BACKEND: 'upstream',
      CUSTODY_BASE_URL: 'https://custody.example.com',
      CUSTODY_API_KEY: 'k',
      CUSTODY_PRIVATE_KEY: generateApiUserKeyPair().privateKeyHex,
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/embedded sandbox only/);
  });

  it('names a bad environment variable: exit 1', async () => {
    const res = await inProcess(['api-users', 'create', '--name', 'x'], { PORT: 'eighty' });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/PORT: must be a whole number/);
  });
});
