import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecondFactorChallenge } from '../../contract/auth.ts';
import { generateApiUserKeyPair } from '../protocol/ecdsa-keys.ts';
import { loadConfig } from '../env.ts';
import { startServer } from '../server.ts';
import { createTestDatabaseConfig, type TestDatabaseConfig } from '../test/test-database.ts';
import { runCli } from './run.ts';

// Upstream mode: staff live in the console's own tables, which need no sandbox.
const UPSTREAM = {
  CUSTODY_BACKEND: 'upstream',
  CUSTODY_BASE_URL: 'https://custody.example.com',
  CUSTODY_API_KEY: 'key',
  CUSTODY_PRIVATE_KEY: generateApiUserKeyPair().privateKeyHex,
  LOG_LEVEL: 'silent',
};

let storage: TestDatabaseConfig;
beforeAll(async () => {
  storage = await createTestDatabaseConfig();
});
afterAll(() => storage.cleanup());

function env(): Record<string, string> {
  return {
    ...UPSTREAM,
    DATA_DIR: storage.dataDir,
    ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
  };
}

async function staffCreate(args: string[], stdin: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['staff', 'create', ...args], {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readStdin: async () => stdin,
    env: env(),
    cwd: process.cwd(),
  });
  return { code, stdout: out.join('\n'), stderr: err.join('\n') };
}

describe('npm run cli -- staff create', () => {
  it('creates a member from a password on stdin, whose password then signs in', async () => {
    const created = await staffCreate(
      [
        '--email',
        'Treasurer@Bank.test',
        '--name',
        'Tess Treasurer',
        '--role',
        'approver',
        '--sub-orgs',
        'sub-a, sub-b',
      ],
      'a long enough passphrase\n',
    );
    expect(created.code, created.stderr).toBe(0);
    const member = JSON.parse(created.stdout) as Record<string, unknown>;
    expect(member).toMatchObject({
      email: 'treasurer@bank.test',
      name: 'Tess Treasurer',
      role: 'approver',
      subOrgIds: ['sub-a', 'sub-b'],
      disabled: false,
    });
    expect(created.stdout).not.toContain('passphrase');

    const again = await staffCreate(
      ['--email', 'treasurer@bank.test', '--name', 'Twin', '--role', 'viewer'],
      'another long passphrase',
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already exists/);

    const config = {
      ...loadConfig({ ...env(), PORT: '0', STATIC_DIR: '/nonexistent-spa' }),
      dataDir: storage.dataDir,
      databaseUrl: storage.databaseUrl,
    };
    const server = await startServer(config, pino({ level: 'silent' }));
    try {
      const res = await fetch(`${server.url}/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: server.url },
        body: JSON.stringify({
          email: 'treasurer@bank.test',
          password: 'a long enough passphrase',
        }),
      });
      expect(res.status).toBe(200);
      // The password is right; an approver then sets up a second factor before any session.
      expect(SecondFactorChallenge.parse(await res.json()).secondFactor).toBe('enrol');
    } finally {
      await server.close();
    }
  });

  it('refuses a short password (exit 1) and a bad role or email (exit 2)', async () => {
    const short = await staffCreate(
      ['--email', 'a@bank.test', '--name', 'A', '--role', 'viewer'],
      'short\n',
    );
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/at least 12 characters/);
    const role = await staffCreate(
      ['--email', 'b@bank.test', '--name', 'B', '--role', 'owner'],
      'x'.repeat(20),
    );
    expect(role.code).toBe(2);
    expect(role.stderr).toMatch(/--role/);
    const email = await staffCreate(
      ['--email', 'nope', '--name', 'C', '--role', 'viewer'],
      'x'.repeat(20),
    );
    expect(email.code).toBe(2);
    expect(email.stderr).toMatch(/--email: email must be an email address/);
  });
});
