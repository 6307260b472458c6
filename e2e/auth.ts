import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { DemoAccountList, type DemoAccount, type StaffRole } from '../src/contract/auth.ts';
import {
  sandboxMembersFile,
  type SandboxMemberKey,
  type SandboxMembers,
} from './sandbox-members.ts';

/**
 * Signing in for browser tests. The demo staff (one per role) come from the
 * sandbox's GET /auth/demo-accounts, as a person would read them on the
 * sign-in page. `signIn` goes through the API: page.request shares the
 * browser context's cookie jar, so the HttpOnly session cookie it receives
 * is the page's too. A server without staff sign-in (/auth/session 404) is
 * used as it is.
 */
export type { StaffRole };

export async function demoAccount(
  request: APIRequestContext,
  role: StaffRole,
): Promise<DemoAccount> {
  const response = await request.get('/auth/demo-accounts');
  expect(response.ok(), 'the sandbox lists its demo accounts').toBe(true);
  const { results } = DemoAccountList.parse(await response.json());
  const account = results.find((a) => a.role === role);
  if (!account) throw new Error(`No demo account with the ${role} role`);
  return account;
}

export async function signIn(page: Page, role: StaffRole, baseURL: string): Promise<void> {
  const probe = await page.request.get('/auth/session');
  if (probe.status() === 404) return;
  const { email, password } = await demoAccount(page.request, role);
  // A browser sends Origin on a POST; the server refuses a sign-in without it.
  const response = await page.request.post('/auth/login', {
    data: { email, password },
    headers: { Origin: new URL(baseURL).origin },
  });
  expect(response.status(), await response.text()).toBe(200);
}

/**
 * Signs `page` in as a member e2e/sandbox-server.ts made with the CLI: its
 * password, then one of its recovery codes, never one an earlier sign-in
 * took. An authenticator code's 30-second step is accepted once per member,
 * so sign-ins close together would wait; a recovery code does not. The
 * codes left are kept in the members file, taken under a lock beside it
 * (several workers sign in); the sign-in that takes the last one asks for a
 * new set, so the codes never run out.
 */
export async function signInAsSandboxMember(
  page: Page,
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
    const login = await page.request.post('/auth/login', {
      headers: { Origin: origin },
      data: { email: member.email, password: member.password },
    });
    expect(login.status(), await login.text()).toBe(200);
    const { challengeId } = (await login.json()) as { challengeId: string };
    const done = await page.request.post('/auth/login/second-factor', {
      headers: { Origin: origin },
      data: { challengeId, code },
    });
    expect(done.status(), await done.text()).toBe(200);
    if (member.recoveryCodes.length > 0) return;
    const { csrfToken } = (await (await page.request.get('/auth/session')).json()) as {
      csrfToken: string;
    };
    const renewed = await page.request.post('/api/console/account/recovery-codes/', {
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

/** `test` for pages behind sign-in: each test starts signed in as `role` (admin unless set). */
export const test = base.extend<{ role: StaffRole; signedIn: void }>({
  role: ['admin', { option: true }],
  signedIn: [
    async ({ page, role, baseURL }, use) => {
      await signIn(page, role, baseURL ?? '');
      await use();
    },
    { auto: true },
  ],
});

export { expect };
