import { randomBytes } from 'node:crypto';
import { expect, type APIRequestContext } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import type { StaffRole } from '../src/contract/auth.ts';

/**
 * Each Playwright worker's own staff, made once per worker through the
 * console's Staff API, as an admin adds members: so two workers' stories
 * never share a member's inbox, session, settings or sign-in codes. Made by
 * the CLI-made admin `memberMaker` (e2e/sandbox-server.ts); a creation that
 * grants approve or admin rights is a proposal, approved by the second
 * CLI-made admin `memberChecker`. Each new member chooses their password
 * with the set-up code; an approver or admin then sets up a second factor at
 * its first sign-in, and keeps the recovery codes it answers, with which
 * every later sign-in completes (an authenticator code's 30-second step is
 * accepted once per member, a recovery code at once).
 *
 * Scope: every member is held to the worker's own sub-organization
 * (e2e/worker-world.ts makes its vaults, contacts and bank account there),
 * so a story sees only its worker's items, whatever another worker's stories
 * or the seed hold. Two admins act in the whole organization, because what
 * they do is refused to an admin held to some sub-organizations: changing
 * the organization's approval policy takes two admins of every
 * sub-organization (`orgAdmin` drafts, `orgAdmin2` publishes: neither made
 * the other, so they are not linked), and only they read the audit log or
 * make a sub-organization.
 */

/** Who a story may sign in as: one per role, a second approver (four eyes) and two organization-wide admins. */
export const MEMBER_KEYS = [
  'viewer',
  'initiator',
  'approver',
  'approver2',
  'admin',
  'orgAdmin',
  'orgAdmin2',
] as const;

/** Members of the whole organization; every other member is held to the worker's sub-organization. */
const ORGANIZATION_WIDE: ReadonlySet<MemberKey> = new Set(['orgAdmin', 'orgAdmin2']);
export type MemberKey = (typeof MEMBER_KEYS)[number];

const ROLE_OF: Record<MemberKey, StaffRole> = {
  viewer: 'viewer',
  initiator: 'initiator',
  approver: 'approver',
  approver2: 'approver',
  admin: 'admin',
  orgAdmin: 'admin',
  orgAdmin2: 'admin',
};

const LABEL_OF: Record<MemberKey, string> = {
  viewer: 'Viewer',
  initiator: 'Initiator',
  approver: 'Approver',
  approver2: 'Second Approver',
  admin: 'Admin',
  orgAdmin: 'Org Admin',
  orgAdmin2: 'Second Org Admin',
};

export interface Member {
  key: MemberKey;
  email: string;
  name: string;
  password: string;
  role: StaffRole;
  /** Null: every sub-organization. */
  subOrgIds: string[] | null;
  /** Recovery codes no sign-in took yet (approvers and admins); empty for a member without a factor. */
  recoveryCodes: string[];
}

export type WorkerMembers = Record<MemberKey, Member>;

/** Unique per worker process: a rerun on one data directory, or a restarted worker, makes new members. */
export function workerTag(workerIndex: number): string {
  return `w${workerIndex}-${randomBytes(3).toString('hex')}`;
}

export async function csrfOf(request: APIRequestContext): Promise<string> {
  const response = await request.get('/auth/session');
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { csrfToken: string }).csrfToken;
}

interface LoginStep {
  challengeId?: string;
  enrolment?: { secret: string };
}

/**
 * Signs `request` in as `member`: the password, then, for a member with a
 * factor, the next of its recovery codes (taking the last asks for a new
 * set). Only this worker signs its members in, one test at a time, so the
 * codes need no lock.
 */
export async function signInMember(
  request: APIRequestContext,
  member: Member,
  origin: string,
): Promise<void> {
  const login = await request.post('/auth/login', {
    headers: { Origin: origin },
    data: { email: member.email, password: member.password },
  });
  expect(login.status(), await login.text()).toBe(200);
  const step = (await login.json()) as LoginStep;
  if (!step.challengeId) return;
  const done = await request.post('/auth/login/second-factor', {
    headers: { Origin: origin },
    data: { challengeId: step.challengeId, code: takeRecoveryCode(member) },
  });
  expect(done.status(), await done.text()).toBe(200);
  await renewIfSpent(request, member, origin);
}

let codesChanged: (() => void) | undefined;

/** `keep` runs after a member's recovery codes change: the worker keeps them (e2e/worker-state.ts). */
export function whenCodesChange(keep: () => void): void {
  codesChanged = keep;
}

/** The member's next unused recovery code, taken (each signs in once). */
export function takeRecoveryCode(member: Member): string {
  const code = member.recoveryCodes.shift();
  if (!code) throw new Error(`no recovery codes left for ${member.email}`);
  codesChanged?.();
  return code;
}

/** After a sign-in that took the last recovery code, a new set, asked with the session `request` holds. */
export async function renewIfSpent(
  request: APIRequestContext,
  member: Member,
  origin: string,
): Promise<void> {
  if (member.recoveryCodes.length > 0) return;
  const renewed = await request.post('/api/console/account/recovery-codes/', {
    headers: { Origin: origin, 'X-CSRF-Token': await csrfOf(request) },
    data: { password: member.password },
  });
  expect(renewed.status(), await renewed.text()).toBe(200);
  member.recoveryCodes = ((await renewed.json()) as { recoveryCodes: string[] }).recoveryCodes;
  codesChanged?.();
}

/** A new member's first sign-in: the factor set up from the key the enrolment step shows. */
async function enrol(request: APIRequestContext, member: Member, origin: string): Promise<void> {
  const login = await request.post('/auth/login', {
    headers: { Origin: origin },
    data: { email: member.email, password: member.password },
  });
  expect(login.status(), await login.text()).toBe(200);
  const step = (await login.json()) as LoginStep;
  if (!step.challengeId) return; // no factor asked of this role
  if (!step.enrolment) throw new Error(`${member.email}'s first sign-in offered no enrolment`);
  const code = new TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: Secret.fromBase32(step.enrolment.secret),
  }).generate();
  const done = await request.post('/auth/login/second-factor', {
    headers: { Origin: origin },
    data: { challengeId: step.challengeId, code },
  });
  expect(done.status(), await done.text()).toBe(200);
  member.recoveryCodes = ((await done.json()) as { recoveryCodes?: string[] }).recoveryCodes ?? [];
  expect(member.recoveryCodes.length, `${member.email}'s recovery codes`).toBeGreaterThan(0);
}

/** A member's signed-in session: the cookies a browser context is handed (`addCookies`). */
export type Cookies = Awaited<ReturnType<APIRequestContext['storageState']>>['cookies'];

/** Each member's session, by email. */
export type Sessions = Record<string, Cookies>;

/**
 * Makes the worker's members: `maker` and `checker` are request contexts
 * signed in as two different admins of the whole organization; `fresh`
 * makes a context without cookies (each new member's first sign-in);
 * `subOrgId` is the worker's sub-organization. Each member's first
 * sign-in (the one that sets up its second factor) is kept as its session.
 */
export async function makeWorkerMembers(options: {
  maker: APIRequestContext;
  checker: APIRequestContext;
  fresh: () => Promise<APIRequestContext>;
  origin: string;
  tag: string;
  subOrgId: string;
}): Promise<{ members: WorkerMembers; sessions: Sessions }> {
  const { maker, checker, fresh, origin, tag } = options;
  const makerCsrf = await csrfOf(maker);
  const checkerCsrf = await csrfOf(checker);
  const members = {} as WorkerMembers;
  const sessions: Sessions = {};
  const make = async (key: MemberKey) => {
    const member: Member = {
      key,
      email: `${tag}-${key.toLowerCase()}@example.com`,
      name: `${LABEL_OF[key]} ${tag.toUpperCase()}`,
      password: `a ${key} passphrase for ${tag}`,
      role: ROLE_OF[key],
      subOrgIds: ORGANIZATION_WIDE.has(key) ? null : [options.subOrgId],
      recoveryCodes: [],
    };
    const created = await maker.post('/api/console/staff/', {
      headers: { Origin: origin, 'X-CSRF-Token': makerCsrf },
      data: {
        email: member.email,
        name: member.name,
        role: member.role,
        subOrgIds: member.subOrgIds,
      },
    });
    expect(created.status(), await created.text()).toBe(201);
    const answer = (await created.json()) as {
      outcome: 'applied' | 'proposed';
      proposal: { id: string } | null;
      setup?: { token: string };
    };
    if (answer.outcome === 'proposed') {
      const decided = await checker.post(
        `/api/console/staff/proposals/${answer.proposal?.id ?? ''}/decision/`,
        {
          headers: { Origin: origin, 'X-CSRF-Token': checkerCsrf },
          data: { action: 'approve' },
        },
      );
      expect(decided.status(), await decided.text()).toBe(200);
    }
    const own = await fresh();
    try {
      const setUp = await own.post('/auth/setup', {
        headers: { Origin: origin },
        data: { token: answer.setup?.token ?? '', password: member.password },
      });
      expect(setUp.status(), await setUp.text()).toBe(200);
      await enrol(own, member, origin);
      // The first sign-in's session is the member's from then on: no story signs in again for it.
      sessions[member.email] = (await own.storageState()).cookies;
    } finally {
      await own.dispose();
    }
    members[key] = member;
  };
  // Two at a time: each member's chain waits on the server at every step (the password hashes
  // above all), so two overlap their waits; more would pass the server's limit of sign-ins in
  // progress from one address (8) once every worker's members are made at once.
  for (let i = 0; i < MEMBER_KEYS.length; i += 2)
    await Promise.all(MEMBER_KEYS.slice(i, i + 2).map(make));
  return { members, sessions };
}
