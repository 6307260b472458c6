import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../src/server/cli/run.ts';
import { loadConfig } from '../src/server/env.ts';
import { createLogger } from '../src/server/logger.ts';
import { startServer } from '../src/server/server.ts';
import { UPSTREAM_MEMBERS } from './upstream-members.ts';

/**
 * The upstream test bed for the browser tests: console B in sandbox mode (the
 * custody API, with an API user made by its own CLI) and console A in
 * upstream mode pointed at it, each with its own data directory. Staff sign
 * in to A; the members come from A's CLI, as an operator would make them.
 * Started by playwright.config.ts; stopped by a signal.
 */

async function cli(args: string[], env: Record<string, string>, stdin = ''): Promise<string> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(args, {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    readStdin: async () => stdin,
    env,
    cwd: process.cwd(),
  });
  if (code !== 0) throw new Error(`cli ${args.join(' ')} exited ${code}: ${err.join('\n')}`);
  return out.join('');
}

async function main(): Promise<void> {
  const portA = process.env.E2E_UPSTREAM_PORT ?? '';
  const portB = process.env.E2E_UPSTREAM_B_PORT ?? '';
  const base = { HOST: '127.0.0.1', LOG_LEVEL: 'warn', STATIC_DIR: 'dist/web' };
  const envB = {
    ...base,
    PORT: portB,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'custody-e2e-b-')),
    SANDBOX_TIME_SCALE: '600',
  };
  const apiUser = JSON.parse(await cli(['api-users', 'create', '--name', 'Console A'], envB)) as {
    apiKey: string;
    privateKeyHex: string;
  };
  const b = await startServer(loadConfig(envB), createLogger('warn'));

  const envA = {
    ...base,
    PORT: portA,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'custody-e2e-a-')),
    CUSTODY_BACKEND: 'upstream',
    CUSTODY_BASE_URL: b.url,
    CUSTODY_API_KEY: apiUser.apiKey,
    CUSTODY_PRIVATE_KEY: apiUser.privateKeyHex,
    // The main flows, not the second factor (e2e/second-factor.spec.ts): its approver signs in
    // with the password alone.
    STAFF_SECOND_FACTOR: 'optional',
  };
  for (const [role, member] of Object.entries(UPSTREAM_MEMBERS)) {
    await cli(
      ['staff', 'create', '--email', member.email, '--name', `Upstream ${role}`, '--role', role],
      envA,
      member.password,
    );
  }
  const a = await startServer(loadConfig(envA), createLogger('warn'));

  const stop = () => {
    void Promise.allSettled([a.close(), b.close()]).then(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`upstream pair failed to start: ${String(error)}\n`);
  process.exit(1);
});
