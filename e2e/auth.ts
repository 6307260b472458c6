import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { DemoAccountList, type DemoAccount, type StaffRole } from '../src/contract/auth.ts';
import {
  makeWorkerMembers,
  renewIfSpent,
  signInMember,
  takeRecoveryCode,
  workerTag,
  type Member,
  type MemberKey,
  type WorkerMembers,
} from './worker-members.ts';
import { makeWorkerWorld, type WorkerWorld } from './worker-world.ts';
import {
  sandboxMembersFile,
  type SandboxMemberKey,
  type SandboxMembers,
} from './sandbox-members.ts';

/**
 * Signing in for browser tests. Each Playwright worker makes its own members
 * once (the worker fixture `members`, e2e/worker-members.ts), and every story
 * signs in as the worker's member of its `role`, so two workers never share
 * a member's inbox, session or settings. Signing in goes through the API:
 * page.request shares the browser context's cookie jar, so the HttpOnly
 * session cookie it receives is the page's too. A server without staff
 * sign-in (/auth/session 404) is used as it is.
 *
 * The sandbox's shared demo members (GET /auth/demo-accounts) are signed in
 * as only by the story about the demo sign-in itself (e2e/auth.spec.ts;
 * scripts/e2e-demo-sign-in.test.ts keeps it so).
 */
export type { StaffRole, Member, MemberKey, WorkerMembers, WorkerWorld };

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

export async function signInAsDemoMember(
  page: Page,
  role: StaffRole,
  baseURL: string,
): Promise<void> {
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

/** This worker's members, once its `members` fixture has made them (every test's auto `signedIn` asks for it). */
let workerMembers: WorkerMembers | undefined;

function membersOfThisWorker(): WorkerMembers {
  if (!workerMembers)
    throw new Error("this worker's members are not made yet: use `test` of e2e/auth.ts");
  return workerMembers;
}

/** Signs `page` in as one of this worker's members: a key (`'approver2'`) or the member itself. */
export async function signInAs(
  page: Page,
  member: Member | MemberKey,
  baseURL: string,
): Promise<void> {
  const probe = await page.request.get('/auth/session');
  if (probe.status() === 404) return;
  const who = typeof member === 'string' ? membersOfThisWorker()[member] : member;
  await signInMember(page.request, who, new URL(baseURL).origin);
}

/** Signs an API request context in as one of this worker's members. */
export async function signInRequest(
  request: APIRequestContext,
  member: Member,
  baseURL: string,
): Promise<void> {
  await signInMember(request, member, new URL(baseURL).origin);
}

/**
 * Signs in on the sign-in page the way the member does: email and password,
 * then, for a member with a second factor, one of its recovery codes.
 */
export async function signInThroughTheForm(
  page: Page,
  member: Member,
  baseURL: string,
): Promise<void> {
  await page.getByLabel('Email').fill(member.email);
  await page.getByLabel('Password').fill(member.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // A member with a second factor always holds unused codes (the last one taken asks for more).
  if (member.recoveryCodes.length === 0) return;
  await page.getByRole('button', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(takeRecoveryCode(member));
  await page.getByLabel('Recovery code').press('Enter');
  await expect(page.getByLabel('Recovery code')).toBeHidden();
  await renewIfSpent(page.request, member, new URL(baseURL).origin);
}

/** Signs `page` in as this worker's member of `role`. */
export async function signIn(page: Page, role: StaffRole, baseURL: string): Promise<void> {
  await signInAs(page, role, baseURL);
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
async function signInSandboxRequest(
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

/** The main sandbox server's address (the upstream project's stories sign in on their own). */
function sandboxURL(): string {
  return `http://127.0.0.1:${process.env.E2E_PORT ?? ''}`;
}

/**
 * `test` for pages behind sign-in: each test starts signed in as this
 * worker's member of `role` (admin unless set). `members` (worker-scoped) is
 * every member the worker made, for a story that needs another one
 * (`signInAs(page, members.approver2, baseURL)` or `memberPage`). `world`
 * (worker-scoped, made when a story first asks for it) is the worker's own
 * sub-organization, funded vaults and approved contacts (e2e/worker-world.ts).
 */
export const test = base.extend<
  { role: StaffRole; signedIn: void },
  { members: WorkerMembers; world: WorkerWorld }
>({
  members: [
    async ({ playwright }, use, workerInfo) => {
      const baseURL = sandboxURL();
      const fresh = () => playwright.request.newContext({ baseURL });
      const maker = await fresh();
      const checker = await fresh();
      try {
        await signInSandboxRequest(maker, 'memberMaker', baseURL);
        await signInSandboxRequest(checker, 'memberChecker', baseURL);
        workerMembers = await makeWorkerMembers({
          maker,
          checker,
          fresh,
          origin: new URL(baseURL).origin,
          tag: workerTag(workerInfo.workerIndex),
        });
      } finally {
        await maker.dispose();
        await checker.dispose();
      }
      await use(workerMembers);
    },
    // Six members, four of them proposed, approved and enrolled: a dozen
    // password checks, once per worker, on a loaded machine.
    { scope: 'worker', timeout: 120_000 },
  ],
  world: [
    async ({ playwright, members }, use, workerInfo) => {
      const baseURL = sandboxURL();
      const origin = new URL(baseURL).origin;
      const signedIn = async (member: Member) => {
        const request = await playwright.request.newContext({ baseURL });
        await signInMember(request, member, origin);
        return request;
      };
      const admin = await signedIn(members.orgAdmin);
      const deciders = [await signedIn(members.approver), await signedIn(members.approver2)];
      let world: WorkerWorld;
      try {
        world = await makeWorkerWorld({
          admin,
          deciders,
          origin,
          tag: workerTag(workerInfo.workerIndex),
        });
      } finally {
        for (const request of [admin, ...deciders]) await request.dispose();
      }
      await use(world);
    },
    // A sub-organization, two vaults, a dozen deposits and two contacts, each approved.
    { scope: 'worker', timeout: 120_000 },
  ],
  role: ['admin', { option: true }],
  signedIn: [
    async ({ page, role, members, baseURL }, use) => {
      await signInAs(page, members[role], baseURL ?? '');
      await use();
    },
    { auto: true },
  ],
});

export { expect };
