import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { expect, type APIRequestContext } from '@playwright/test';

/**
 * The staff e2e/sandbox-server.ts makes on the main test server with the
 * CLI, as an operator makes a console's first admins: no member made them, so
 * no member is linked to them. Their credentials are written to a JSON file
 * beside the server's data directory, for the workers to read.
 */

/** The two admins that make each worker's own members (e2e/worker-members.ts). */
export type SandboxMemberKey = 'memberMaker' | 'memberChecker';

export type SandboxMember = {
  email: string;
  name: string;
  password: string;
  /** Recovery codes no sign-in took yet: each signs in once, with no wait for a time step. */
  recoveryCodes: string[];
};

export type SandboxMembers = Record<SandboxMemberKey, SandboxMember>;

/** The file beside `dataDir` (E2E_DATA_DIR in the workers, DATA_DIR in the server script). */
export function sandboxMembersFile(dataDir: string): string {
  return `${dataDir}.members.json`;
}

/**
 * Signs `request` in as an admin e2e/sandbox-server.ts made with the CLI:
 * its password, then one of its recovery codes, never one an earlier
 * sign-in took. An authenticator code's 30-second step is accepted once per member,
 * so sign-ins close together would wait; a recovery code does not. The
 * codes left are kept in the members file, taken under a lock beside it
 * (several workers sign in); the sign-in that takes the last one asks for a
 * new set, so the codes never run out.
 */
export async function signInSandboxRequest(
  request: APIRequestContext,
  key: SandboxMemberKey,
  baseURL: string,
): Promise<void> {
  const file = sandboxMembersFile(process.env.E2E_DATA_DIR ?? '');
  const origin = new URL(baseURL).origin;
  const read = () => JSON.parse(readFileSync(file, 'utf8')) as SandboxMembers;
  // The server answers its health check a moment before the file is written.
  await expect
    .poll(() => existsSync(file), {
      timeout: 30_000,
      message: `${file} written by e2e/sandbox-server.ts`,
    })
    .toBe(true);
  await withFileLock(`${file}.lock`, async () => {
    const members = read();
    const member = members[key];
    const code = member.recoveryCodes.shift();
    if (!code) throw new Error(`${file}: no recovery codes left for ${member.email}`);
    writeFileSync(file, JSON.stringify(members, null, 2));
    const login = await request.post('/auth/login', {
      headers: { Origin: origin },
      data: { email: member.email, password: member.password },
    });
    expect(login.status(), await login.text()).toBe(200);
    const { challengeId } = (await login.json()) as { challengeId: string };
    const done = await request.post('/auth/login/second-factor', {
      headers: { Origin: origin },
      data: { challengeId, code },
    });
    expect(done.status(), await done.text()).toBe(200);
    if (member.recoveryCodes.length > 0) return;
    const { csrfToken } = (await (await request.get('/auth/session')).json()) as {
      csrfToken: string;
    };
    const renewed = await request.post('/api/console/account/recovery-codes/', {
      headers: { Origin: origin, 'X-CSRF-Token': csrfToken },
      data: { password: member.password },
    });
    expect(renewed.status(), await renewed.text()).toBe(200);
    member.recoveryCodes = ((await renewed.json()) as { recoveryCodes: string[] }).recoveryCodes;
    writeFileSync(file, JSON.stringify(members, null, 2));
  });
}

/** Runs `work` holding a lock file made exclusively; one left by a process that is gone is taken over. */
async function withFileLock(lock: string, work: () => Promise<void>): Promise<void> {
  const take = () => {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return true;
    } catch {
      let pid: number;
      try {
        pid = Number(readFileSync(lock, 'utf8'));
      } catch {
        return false; // released meanwhile: the next try takes it
      }
      // An empty file is one being written by the process taking it.
      if (!pid || isAlive(pid)) return false;
      rmSync(lock, { force: true });
      return take();
    }
  };
  await expect.poll(take, { timeout: 30_000, intervals: [100], message: lock }).toBe(true);
  try {
    await work();
  } finally {
    rmSync(lock, { force: true });
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
