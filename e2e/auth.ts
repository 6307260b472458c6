import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import {
  test as base,
  expect,
  type APIRequestContext,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { DemoAccountList, type DemoAccount, type StaffRole } from '../src/contract/auth.ts';
import {
  makeWorkerMembers,
  renewIfSpent,
  signInMember,
  takeRecoveryCode,
  whenCodesChange,
  workerTag,
  type Member,
  type MemberKey,
  type WorkerMembers,
} from './worker-members.ts';
import { makeSubOrg, makeWorkerWorld, type WorkerWorld, type WorldSubOrg } from './worker-world.ts';
import { isWhole, readWorkerState, writeWorkerState, type WorkerState } from './worker-state.ts';
import {
  sandboxMembersFile,
  type SandboxMemberKey,
  type SandboxMembers,
} from './sandbox-members.ts';

/**
 * Signing in for browser tests. Each Playwright worker makes its own members
 * once (the worker fixture `members`, e2e/worker-members.ts), held to its own
 * sub-organization, and every story signs in as the worker's member of its
 * `role`, so two workers never share a member's inbox, session, settings or
 * items. Signing in goes through the API:
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

type Cookies = Awaited<ReturnType<BrowserContext['cookies']>>;

/**
 * Each member's session, kept from its first sign-in in this worker and
 * handed to every later page signed in as that member: a sign-in is a
 * password check and a recovery code (a second or more on a loaded
 * machine), a session is a cookie the server accepts from any page until it
 * is signed out, idle for 30 minutes or 8 hours old. Only this worker's
 * stories use these members' sessions, one story at a time.
 */
const sessions = new Map<string, Cookies>();

/** Whether the session `page` holds is a live one of `email`; 404: a server without staff sign-in. */
async function sessionOf(page: Page, email: string): Promise<'live' | 'none' | 'no sign-in'> {
  const answer = await page.request.get('/auth/session');
  if (answer.status() === 404) return 'no sign-in';
  if (answer.status() !== 200) return 'none';
  const { member } = (await answer.json()) as { member?: { email?: string } };
  return member?.email === email ? 'live' : 'none';
}

/**
 * Signs `page` in as one of this worker's members: a key (`'approver2'`) or
 * the member itself. The member's session from an earlier sign-in in this
 * worker is reused while the server still accepts it; `fresh` signs in
 * anew (a story about signing in or out, sessions or second factors), and
 * that session is the story's alone.
 */
export async function signInAs(
  page: Page,
  member: Member | MemberKey,
  baseURL: string,
  options: { fresh?: boolean } = {},
): Promise<void> {
  const who = typeof member === 'string' ? membersOfThisWorker()[member] : member;
  const saved = options.fresh ? undefined : sessions.get(who.email);
  if (saved) await page.context().addCookies(saved);
  const found = await sessionOf(page, who.email);
  if (found === 'no sign-in' || (saved && found === 'live')) return;
  // Signed out, idle or replaced meanwhile (or never signed in): a new sign-in.
  if (saved) sessions.delete(who.email);
  await signInMember(page.request, who, new URL(baseURL).origin);
  if (!options.fresh) sessions.set(who.email, await page.context().cookies());
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

/** Signs `page` in as this worker's member of `role` (a role, or any member's key: `'orgAdmin'`). */
export async function signIn(page: Page, role: MemberKey, baseURL: string): Promise<void> {
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

/**
 * How long this worker's set-up took, fixture by fixture (ms), noted once on
 * its first story ("worker set-up") for the run's report: worker fixtures
 * run outside any story's time, so the JSON report would not show them.
 */
const setUpTimes: Array<[string, number]> = [];
let setUpNoted = false;

async function timed<T>(name: string, work: () => Promise<T>): Promise<T> {
  const start = Date.now();
  try {
    return await work();
  } finally {
    setUpTimes.push([name, Date.now() - start]);
  }
}

/** The main sandbox server's address (the upstream project's stories sign in on their own). */
function sandboxURL(): string {
  return `http://127.0.0.1:${process.env.E2E_PORT ?? ''}`;
}

/**
 * `test` for pages behind sign-in: each test starts signed in as this
 * worker's member of `role` (admin unless set; `'orgAdmin'` for a story
 * about what only an admin of the whole organization does). `members`
 * (worker-scoped) is every member the worker made, for a story that needs
 * another one (`signInAs(page, members.approver2, baseURL)` or
 * `memberPage`). `world` (worker-scoped, made before the first story) is
 * the worker's own sub-organization, funded vaults, approved contacts and
 * bank account (e2e/worker-world.ts).
 */
export const test = base.extend<
  { role: MemberKey; freshSession: boolean; signedIn: void },
  {
    keptState: WorkerState | undefined;
    workerTag: string;
    subOrg: WorldSubOrg;
    members: WorkerMembers;
    world: WorkerWorld;
  }
>({
  // The members and world an earlier worker of this parallel index made, when they are still whole.
  keptState: [
    async ({ playwright }, use, workerInfo) => {
      const kept = readWorkerState(workerInfo.parallelIndex);
      let whole = false;
      if (kept)
        await timed('kept state checked', async () => {
          whenCodesChange(() => writeWorkerState(workerInfo.parallelIndex, kept));
          const baseURL = sandboxURL();
          const admin = await playwright.request.newContext({ baseURL });
          try {
            await signInMember(admin, kept.members.orgAdmin, new URL(baseURL).origin);
            whole = await isWhole(admin, kept);
          } catch {
            // A member that cannot sign in is a world to make anew.
            whole = false;
          } finally {
            await admin.dispose();
          }
        });
      await use(whole ? kept : undefined);
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  workerTag: [
    async ({ keptState }, use, workerInfo) => {
      await use(keptState?.tag ?? workerTag(workerInfo.workerIndex));
    },
    { scope: 'worker' },
  ],
  // The worker's sub-organization, made before its members, who are held to it.
  subOrg: [
    async ({ playwright, keptState, workerTag: tag }, use) => {
      if (keptState) {
        await use(keptState.subOrg);
        return;
      }
      const baseURL = sandboxURL();
      const maker = await playwright.request.newContext({ baseURL });
      let subOrg: WorldSubOrg;
      try {
        subOrg = await timed('sub-organization', async () => {
          await signInSandboxRequest(maker, 'memberMaker', baseURL);
          return makeSubOrg(maker, new URL(baseURL).origin, tag);
        });
      } finally {
        await maker.dispose();
      }
      await use(subOrg);
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  members: [
    async ({ playwright, keptState, subOrg, workerTag: tag }, use) => {
      if (keptState) {
        workerMembers = keptState.members;
        await use(workerMembers);
        return;
      }
      const baseURL = sandboxURL();
      const fresh = () => playwright.request.newContext({ baseURL });
      const maker = await fresh();
      const checker = await fresh();
      try {
        workerMembers = await timed('members', async () => {
          await signInSandboxRequest(maker, 'memberMaker', baseURL);
          await signInSandboxRequest(checker, 'memberChecker', baseURL);
          return makeWorkerMembers({
            maker,
            checker,
            fresh,
            origin: new URL(baseURL).origin,
            tag,
            subOrgId: subOrg.id,
          });
        });
      } finally {
        await maker.dispose();
        await checker.dispose();
      }
      await use(workerMembers);
    },
    // Seven members, five of them proposed, approved and enrolled: a dozen
    // password checks, once per worker, on a loaded machine. Two minutes ran
    // out with the machine shared by other jobs (load 40 on 2 cores), and the
    // replacement worker made them all again: the bound is for a hang, not
    // for speed (the worker's first story notes what set-up took).
    { scope: 'worker', timeout: 300_000 },
  ],
  world: [
    async ({ playwright, keptState, members, subOrg, workerTag: tag }, use, workerInfo) => {
      if (keptState) {
        await use(keptState.world);
        return;
      }
      const baseURL = sandboxURL();
      const origin = new URL(baseURL).origin;
      const signedIn = async (member: Member) => {
        const request = await playwright.request.newContext({ baseURL });
        await signInMember(request, member, origin);
        return request;
      };
      const start = Date.now();
      const admin = await signedIn(members.orgAdmin);
      const deciders = [await signedIn(members.approver), await signedIn(members.approver2)];
      let world: WorkerWorld;
      try {
        world = await makeWorkerWorld({
          admin,
          deciders,
          origin,
          tag,
          subOrg,
        });
      } finally {
        for (const request of [admin, ...deciders]) await request.dispose();
        setUpTimes.push(['world', Date.now() - start]);
      }
      // Kept for the worker that replaces this one after a failed story.
      const state: WorkerState = { tag, subOrg, members, world };
      const keep = () => writeWorkerState(workerInfo.parallelIndex, state);
      keep();
      whenCodesChange(keep);
      await use(world);
    },
    // Two vaults, a dozen deposits, two contacts and a bank account, each approved.
    { scope: 'worker', timeout: 300_000 },
  ],
  role: ['admin', { option: true }],
  /** A story about signing in or out, sessions or second factors starts on a session of its own. */
  freshSession: [false, { option: true }],
  signedIn: [
    // The world first: the members are held to its sub-organization, so a page shows only what it holds.
    async ({ page, role, freshSession, members, world: _world, baseURL }, use, testInfo) => {
      const start = Date.now();
      await signInAs(page, members[role], baseURL ?? '', { fresh: freshSession });
      // What each story pays to start signed in, for the run's report.
      testInfo.annotations.push({ type: 'signed in', description: `${Date.now() - start} ms` });
      if (!setUpNoted) {
        setUpNoted = true;
        testInfo.annotations.push({
          type: 'worker set-up',
          description: setUpTimes.map(([what, ms]) => `${what} ${ms} ms`).join(', ') || 'none',
        });
      }
      await use();
    },
    { auto: true },
  ],
});

export { expect };

/** Signs out with the header's button (in the menu below 1280 px) and waits for the sign-in page. */
export async function signOut(page: Page): Promise<void> {
  const menu = page.getByRole('button', { name: /^Menu\b/ });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
}
