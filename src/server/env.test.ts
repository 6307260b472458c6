import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateApiUserKeyPair } from './protocol/ecdsa-keys.ts';
import { ConfigError, loadConfig } from './env.ts';

const cwd = '/srv/console';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env, cwd);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    expect(loadConfig({}, cwd)).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: path.join(cwd, '.data'),
      databaseUrl: undefined,
      custody: { backend: 'sandbox' },
      sandbox: { timeScale: 1, rampRateTolerancePercent: '0.5' },
      logLevel: 'info',
      staticDir: path.join(cwd, 'dist/web'),
      trustProxy: 0,
      secondFactor: 'privileged',
      passkeyPrompt: true,
      approvalSigning: 'registered',
      readCache: true,
      pgliteTransactionWaitMs: 25,
      ssoCheckMs: 300_000,
      notifications: { baseUrl: undefined, stuckAfterMs: 3_600_000 },
      webhooks: { allowPrivateTargets: false, timeoutMs: 10_000, receiverKey: null },
    });
  });

  it('reads SSO_CHECK_SECONDS, refusing what is out of range by name', () => {
    expect(loadConfig({ SSO_CHECK_SECONDS: '60' }, cwd).ssoCheckMs).toBe(60_000);
    expect(() => loadConfig({ SSO_CHECK_SECONDS: '5' }, cwd)).toThrow(/SSO_CHECK_SECONDS/);
    expect(() => loadConfig({ SSO_CHECK_SECONDS: 'soon' }, cwd)).toThrow(/SSO_CHECK_SECONDS/);
  });

  it('reads the notification settings, refusing what is out of range by name', () => {
    const config = loadConfig(
      { NOTIFICATION_BASE_URL: 'https://console.example.com/', NOTIFICATION_STUCK_MINUTES: '15' },
      cwd,
    );
    expect(config.notifications).toEqual({
      baseUrl: 'https://console.example.com',
      stuckAfterMs: 900_000,
    });
    expect(() => loadConfig({ NOTIFICATION_BASE_URL: 'console' }, cwd)).toThrow(
      /NOTIFICATION_BASE_URL/,
    );
    expect(() => loadConfig({ NOTIFICATION_STUCK_MINUTES: '0' }, cwd)).toThrow(
      /NOTIFICATION_STUCK_MINUTES/,
    );
  });

  it('reads the webhook variables, naming each refused and never echoing the key', () => {
    const config = loadConfig(
      {
        WEBHOOK_ALLOW_PRIVATE_TARGETS: '1',
        WEBHOOK_TIMEOUT_MS: '2500',
        CUSTODY_WEBHOOK_KEY: 'a-key-of-sixteen-chars',
      },
      cwd,
    );
    expect(config.webhooks).toEqual({
      allowPrivateTargets: true,
      timeoutMs: 2500,
      receiverKey: 'a-key-of-sixteen-chars',
    });
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes' }, cwd)).toThrow(
      'WEBHOOK_ALLOW_PRIVATE_TARGETS: must be 0 or 1 (got "yes")',
    );
    expect(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '5' }, cwd)).toThrow('WEBHOOK_TIMEOUT_MS');
    const short = () => loadConfig({ CUSTODY_WEBHOOK_KEY: 'short-secret' }, cwd);
    expect(short).toThrow('CUSTODY_WEBHOOK_KEY: must be at least 16 characters');
    expect(short).not.toThrow('short-secret');
  });

  it('reads READ_CACHE, and names it when it is neither on nor off', () => {
    expect(loadConfig({ READ_CACHE: 'off' }, cwd).readCache).toBe(false);
    expect(loadConfig({ READ_CACHE: 'on' }, cwd).readCache).toBe(true);
    expect(() => loadConfig({ READ_CACHE: 'no' }, cwd)).toThrow(
      'READ_CACHE: must be on or off (got "no")',
    );
  });

  it('reads RAMP_RATE_TOLERANCE_PERCENT as a decimal string, and names it when it is not a percentage', () => {
    expect(loadConfig({ RAMP_RATE_TOLERANCE_PERCENT: '0.25' }, cwd).sandbox).toEqual({
      timeScale: 1,
      rampRateTolerancePercent: '0.25',
    });
    for (const bad of ['-1', '100', 'half', '0.5%'])
      expect(problems({ RAMP_RATE_TOLERANCE_PERCENT: bad })).toEqual([
        expect.stringMatching(
          /^RAMP_RATE_TOLERANCE_PERCENT: must be a percentage from 0 to 99\.9999, like 0\.5/,
        ),
      ]);
  });

  it('reads STAFF_PASSKEY_PROMPT, and names it when it is neither on nor off', () => {
    expect(loadConfig({ STAFF_PASSKEY_PROMPT: 'off' }, cwd).passkeyPrompt).toBe(false);
    expect(loadConfig({ STAFF_PASSKEY_PROMPT: 'on' }, cwd).passkeyPrompt).toBe(true);
    expect(() => loadConfig({ STAFF_PASSKEY_PROMPT: 'sometimes' }, cwd)).toThrow(
      'STAFF_PASSKEY_PROMPT: must be on or off',
    );
  });

  it('reads APPROVAL_SIGNING, and names it when it is not one of its values', () => {
    expect(loadConfig({ APPROVAL_SIGNING: 'required' }, cwd).approvalSigning).toBe('required');
    expect(loadConfig({ APPROVAL_SIGNING: 'registered' }, cwd).approvalSigning).toBe('registered');
    expect(() => loadConfig({ APPROVAL_SIGNING: 'never' }, cwd)).toThrow(
      'APPROVAL_SIGNING: must be registered or required',
    );
  });

  it('reads STAFF_SECOND_FACTOR, and names it when it is not one of its values', () => {
    expect(loadConfig({ STAFF_SECOND_FACTOR: 'all' }, cwd).secondFactor).toBe('all');
    expect(loadConfig({ STAFF_SECOND_FACTOR: 'optional' }, cwd).secondFactor).toBe('optional');
    expect(() => loadConfig({ STAFF_SECOND_FACTOR: 'never' }, cwd)).toThrow(
      'STAFF_SECOND_FACTOR: must be privileged, all or optional (got "never")',
    );
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '0',
        HOST: '0.0.0.0',
        DATA_DIR: '/var/lib/console',
        DATABASE_URL: 'postgres://u:p@db:5432/custody',
        SANDBOX_TIME_SCALE: '60',
        LOG_LEVEL: 'silent',
        STATIC_DIR: 'build',
        TRUST_PROXY: 'true',
      },
      cwd,
    );
    expect(config).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      dataDir: '/var/lib/console',
      databaseUrl: 'postgres://u:p@db:5432/custody',
      sandbox: { timeScale: 60 },
      logLevel: 'silent',
      staticDir: path.join(cwd, 'build'),
      trustProxy: 1,
    });
  });

  it('reads TRUST_PROXY as how many proxies are in front: true is one, false none', () => {
    const hops = (value: string) => loadConfig({ TRUST_PROXY: value }, cwd).trustProxy;
    expect(['false', '0', 'true', '1', '2'].map(hops)).toEqual([0, 0, 1, 1, 2]);
    for (const bad of ['yes', '10', '-1', '1.5'])
      expect(problems({ TRUST_PROXY: bad })).toEqual([
        `TRUST_PROXY: must be true, false, or how many proxies are in front of the console (0 to 9) (got "${bad}")`,
      ]);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '  ', LOG_LEVEL: '' }, cwd)).toMatchObject({
      port: 8080,
      databaseUrl: undefined,
      logLevel: 'info',
    });
  });

  it('names each bad variable at once', () => {
    const list = problems({
      PORT: 'eighty',
      SANDBOX_TIME_SCALE: '0',
      LOG_LEVEL: 'loud',
      CUSTODY_BACKEND: 'mock',
    });
    expect(list.map((p) => p.split(':')[0]).sort()).toEqual([
      'CUSTODY_BACKEND',
      'LOG_LEVEL',
      'PORT',
      'SANDBOX_TIME_SCALE',
    ]);
    expect(list.join('\n')).toContain('"eighty"');
  });

  it.each([['70000'], ['-1'], ['8080.5']])('refuses PORT=%s', (port) => {
    expect(problems({ PORT: port })[0]).toMatch(/^PORT:/);
  });

  it('refuses a DATABASE_URL that is not PostgreSQL, without echoing it', () => {
    const [problem] = problems({ DATABASE_URL: 'mysql://root:hunter2@db/x' });
    expect(problem).toMatch(/^DATABASE_URL:/);
    expect(problem).not.toContain('hunter2');
  });

  it('requires the upstream settings only in upstream mode, never echoing secrets', () => {
    expect(problems({ CUSTODY_BACKEND: 'upstream' }).map((p) => p.split(':')[0])).toEqual([
      'CUSTODY_BASE_URL',
      'CUSTODY_API_KEY',
      'CUSTODY_PRIVATE_KEY',
    ]);
    const { privateKeyHex } = generateApiUserKeyPair();
    const config = loadConfig(
      {
        CUSTODY_BACKEND: 'upstream',
        CUSTODY_BASE_URL: 'https://custody.example.com',
        CUSTODY_API_KEY: 'k',
        CUSTODY_PRIVATE_KEY: privateKeyHex,
      },
      cwd,
    );
    expect(config.custody).toEqual({
      backend: 'upstream',
      baseUrl: 'https://custody.example.com',
      apiKey: 'k',
      privateKey: privateKeyHex,
      timeoutMs: 15_000,
    });
    // Sandbox mode ignores them.
    expect(loadConfig({ CUSTODY_API_KEY: 'k' }, cwd).custody).toEqual({ backend: 'sandbox' });
  });

  it('reads the private key from CUSTODY_PRIVATE_KEY_FILE and refuses a bad key without echoing it', async () => {
    const { privateKeyHex } = generateApiUserKeyPair();
    const dir = await mkdtemp(path.join(tmpdir(), 'custody-env-'));
    await writeFile(path.join(dir, 'api-user.key'), `${privateKeyHex}\n`);
    const base = {
      CUSTODY_BACKEND: 'upstream',
      CUSTODY_BASE_URL: 'https://custody.example.com',
      CUSTODY_API_KEY: 'k',
    };
    const config = loadConfig(
      { ...base, CUSTODY_PRIVATE_KEY_FILE: 'api-user.key', CUSTODY_TIMEOUT_MS: '250' },
      dir,
    );
    expect(config.custody).toMatchObject({ privateKey: privateKeyHex, timeoutMs: 250 });

    expect(problems({ ...base, CUSTODY_PRIVATE_KEY_FILE: 'missing.key' })).toEqual([
      'CUSTODY_PRIVATE_KEY_FILE: cannot read missing.key (ENOENT)',
    ]);
    const [bad] = problems({ ...base, CUSTODY_PRIVATE_KEY: 'abcdef0123' });
    expect(bad).toMatch(/^CUSTODY_PRIVATE_KEY: private key is neither PEM nor PKCS#8/);
    expect(bad).not.toContain('abcdef0123');
    expect(
      problems({ ...base, CUSTODY_PRIVATE_KEY: privateKeyHex, CUSTODY_TIMEOUT_MS: '0' })[0],
    ).toMatch(/^CUSTODY_TIMEOUT_MS:/);
  });
});
