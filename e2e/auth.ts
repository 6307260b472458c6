import {
  test as base,
  expect,
  type APIRequestContext,
  type Page,
  type PlaywrightWorkerArgs,
  type WorkerInfo,
} from '@playwright/test';
import { DemoAccountList, type DemoAccount, type StaffRole } from '../src/contract/auth.ts';
import {
  renewIfSpent,
  signInMember,
  takeRecoveryCode,
  whenCodesChange,
  workerTag,
  type Cookies,
  type Member,
  type MemberKey,
  type Sessions,
  type WorkerMembers,
} from './worker-members.ts';
import type { WorkerWorld, WorldSubOrg } from './worker-world.ts';
import { isWhole, readWorkerState, writeWorkerState, type WorkerState } from './worker-state.ts';
import { makeWorkerState } from './worker-setup.ts';
import { isAlive, signInSandboxRequest } from './sandbox-members.ts';

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
export { isAlive };

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

/**
 * Each member's session, kept from its first sign-in (its set-up, in the
 * global set-up) and handed to every page signed in as that member: a
 * sign-in is a password check and a recovery code (a second or more on a
 * loaded machine), a session is a cookie the server accepts from any page
 * until it is signed out, idle for 30 minutes or 8 hours old. Only this
 * worker's stories use these members' sessions, one story at a time. Kept
 * in the worker's state (`sessionsChanged`), for the worker that may
 * replace this one.
 */
let sessions: Sessions = {};
let sessionsChanged: (() => void) | undefined;

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
  const saved = options.fresh ? undefined : sessions[who.email];
  if (saved) await page.context().addCookies(saved);
  const found = await sessionOf(page, who.email);
  if (found === 'no sign-in' || (saved && found === 'live')) return;
  // Signed out, idle or replaced meanwhile (or never signed in): a new sign-in.
  await signInMember(page.request, who, new URL(baseURL).origin);
  if (options.fresh) return;
  sessions[who.email] = await page.context().cookies();
  sessionsChanged?.();
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
 * How this worker came by its members and world (ms, step by step), noted
 * once on its first story ("worker set-up") for the run's report: worker
 * fixtures and the global set-up run outside any story's time, so the JSON
 * report would not show them otherwise.
 */
let setUpNote = '';
let setUpNoted = false;

/** The main sandbox server's address (the upstream project's stories sign in on their own). */
function sandboxURL(): string {
  return `http://127.0.0.1:${process.env.E2E_PORT ?? ''}`;
}

const describeSetUp = (steps: Array<[string, number]>) =>
  steps.map(([what, ms]) => `${what} ${ms} ms`).join(', ');

/**
 * This worker's members and world: the ones the global set-up made for its
 * parallel index (e2e/global-setup.ts), taken as they are by the first
 * worker of that index; a later worker of the index (Playwright's
 * replacement after a failed story) takes them once checked whole, and
 * otherwise makes its own, as the global set-up does.
 */
async function takeWorkerState(
  playwright: PlaywrightWorkerArgs['playwright'],
  workerInfo: WorkerInfo,
): Promise<WorkerState> {
  const baseURL = sandboxURL();
  const origin = new URL(baseURL).origin;
  const kept = readWorkerState(workerInfo.parallelIndex);
  if (kept && !kept.taken) {
    setUpNote = `made in the global set-up: ${describeSetUp(kept.setUp)}`;
    return kept;
  }
  if (kept) {
    const start = Date.now();
    whenCodesChange(() => writeWorkerState(workerInfo.parallelIndex, kept));
    const admin = await playwright.request.newContext({ baseURL });
    let whole: boolean;
    try {
      await signInMember(admin, kept.members.orgAdmin, origin);
      whole = await isWhole(admin, kept);
    } catch {
      // A member that cannot sign in is a world to make anew.
      whole = false;
    } finally {
      await admin.dispose();
    }
    setUpNote = `kept state checked ${Date.now() - start} ms`;
    if (whole) return kept;
  }
  const contexts: APIRequestContext[] = [];
  const newContext = async (cookies?: Cookies) => {
    const context = await playwright.request.newContext({
      baseURL,
      ...(cookies ? { storageState: { cookies, origins: [] } } : {}),
    });
    contexts.push(context);
    return context;
  };
  try {
    const maker = await newContext();
    const checker = await newContext();
    await signInSandboxRequest(maker, 'memberMaker', baseURL);
    await signInSandboxRequest(checker, 'memberChecker', baseURL);
    const made = await makeWorkerState({
      maker,
      checker,
      newContext,
      origin,
      tag: workerTag(workerInfo.workerIndex),
    });
    setUpNote = [setUpNote, `made anew: ${describeSetUp(made.setUp)}`].filter(Boolean).join('; ');
    return made;
  } finally {
    for (const context of contexts) await context.dispose();
  }
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
    workerState: WorkerState;
    subOrg: WorldSubOrg;
    members: WorkerMembers;
    world: WorkerWorld;
  }
>({
  workerState: [
    async ({ playwright }, use, workerInfo) => {
      const state = await takeWorkerState(playwright, workerInfo);
      // Kept for the worker that replaces this one after a failed story, with every code and
      // session as it is now.
      state.taken = true;
      const keep = () => writeWorkerState(workerInfo.parallelIndex, state);
      keep();
      whenCodesChange(keep);
      sessionsChanged = keep;
      sessions = state.sessions;
      workerMembers = state.members;
      await use(state);
    },
    // Made anew only when a replaced worker's are no longer whole: seven members, five of them
    // proposed, approved and enrolled, then the world, on a loaded machine. The bound is for a
    // hang, not for speed (the worker's first story notes what set-up took).
    { scope: 'worker', timeout: 300_000 },
  ],
  subOrg: [
    async ({ workerState }, use) => {
      await use(workerState.subOrg);
    },
    { scope: 'worker' },
  ],
  members: [
    async ({ workerState }, use) => {
      await use(workerState.members);
    },
    { scope: 'worker' },
  ],
  world: [
    async ({ workerState }, use) => {
      await use(workerState.world);
    },
    { scope: 'worker' },
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
        testInfo.annotations.push({ type: 'worker set-up', description: setUpNote || 'none' });
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
