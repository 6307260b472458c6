import { renameSync, writeFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import { runCli } from '../src/server/cli/run.ts';
import { loadConfig } from '../src/server/env.ts';
import { createLogger } from '../src/server/logger.ts';
import { startServer } from '../src/server/server.ts';
import {
  sandboxMembersFile,
  type SandboxMember,
  type SandboxMemberKey,
  type SandboxMembers,
} from './sandbox-members.ts';

/**
 * The main test server for the browser tests: a sandbox console (env from
 * playwright.config.ts) with admins made by its own CLI before it starts, as
 * an operator makes a console's first admins. Two of them make each
 * Playwright worker's own members through the Staff API (e2e/worker-members.ts):
 * one proposes, the other approves what grants approve or admin rights, and
 * neither is linked to a member the other made. Each is signed in once over
 * HTTP to set up its second factor; the
 * credentials and the recovery codes that set-up answers go to
 * sandboxMembersFile(DATA_DIR). Stopped by a signal.
 */

const MEMBERS: Record<SandboxMemberKey, { email: string; name: string; password: string }> = {
  memberMaker: {
    email: 'member-maker@example.com',
    name: 'Mo Maker',
    password: 'a member maker passphrase',
  },
  memberChecker: {
    email: 'member-checker@example.com',
    name: 'Cy Checker',
    password: 'a member checker passphrase',
  },
};

async function cli(args: string[], env: Record<string, string | undefined>, stdin: string) {
  const err: string[] = [];
  const code = await runCli(args, {
    stdout: () => {},
    stderr: (text) => err.push(text),
    readStdin: async () => stdin,
    env,
    cwd: process.cwd(),
  });
  if (code !== 0) throw new Error(`cli ${args.join(' ')} exited ${code}: ${err.join('\n')}`);
}

async function post(url: string, body: unknown): Promise<unknown> {
  // The server refuses a sign-in without the Origin a browser sends.
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: new URL(url).origin },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as unknown;
}

/** Password, then the first code of the key the enrolment step answers: the recovery codes. */
async function enrol(baseUrl: string, email: string, password: string): Promise<string[]> {
  const challenge = (await post(`${baseUrl}/auth/login`, { email, password })) as {
    challengeId?: string;
    enrolment?: { secret: string };
  };
  if (!challenge.challengeId || !challenge.enrolment)
    throw new Error(`signing in ${email} asked for no second factor to set up`);
  const code = new TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(challenge.enrolment.secret),
  }).generate();
  const session = (await post(`${baseUrl}/auth/login/second-factor`, {
    challengeId: challenge.challengeId,
    code,
  })) as { recoveryCodes?: string[] };
  if (!session.recoveryCodes?.length) throw new Error(`setting up ${email} answered no codes`);
  return session.recoveryCodes;
}

async function main(): Promise<void> {
  const env = process.env;
  const config = loadConfig(env);
  for (const member of Object.values(MEMBERS)) {
    await cli(
      ['staff', 'create', '--email', member.email, '--name', member.name, '--role', 'admin'],
      env,
      member.password,
    );
  }
  const server = await startServer(config, createLogger(config.logLevel));

  const stop = () => {
    void server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  const members = {} as SandboxMembers;
  for (const [key, member] of Object.entries(MEMBERS) as Array<
    [SandboxMemberKey, (typeof MEMBERS)[SandboxMemberKey]]
  >) {
    const recoveryCodes = await enrol(server.url, member.email, member.password);
    members[key] = { ...member, recoveryCodes } satisfies SandboxMember;
  }
  // Written whole, then renamed into place: a worker waiting for it never reads half of it.
  const file = sandboxMembersFile(config.dataDir);
  writeFileSync(`${file}.tmp`, JSON.stringify(members, null, 2));
  renameSync(`${file}.tmp`, file);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `sandbox server failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
