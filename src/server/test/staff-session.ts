import type { StaffRole } from '#contract/auth.ts';
import { CSRF_HEADER, SESSION_COOKIE } from '#contract/auth.ts';
import type { App } from '../app.ts';
import { hashPassword } from '../auth/password.ts';
import { createSession } from '../auth/session.store.ts';
import type { Clock } from '../clock.ts';
import { TestClock } from './test-clock.ts';
import { createStaff, type StaffRecord } from '../auth/staff.store.ts';
import type { Database } from '../db/client.ts';

/**
 * Signed-in staff for tests. Every /api request needs a caller, so
 * tests either act as a member made here, or go through /auth/login when
 * sign-in itself is what they test.
 */

/** The origin app.request() requests arrive on (its default base URL). */
export const TEST_ORIGIN = 'http://localhost';

/** A clock the test moves by hand: sessions expire against it, never against real time. */
export type ManualClock = TestClock;

/** Starts at the real time, since the tokens tests sign for API clients carry the real time. */
export function createManualClock(start: Date = new Date()): ManualClock {
  return new TestClock(start);
}

// The cost of a real hash buys nothing in a test; the parameters travel with it.
const cheapHash = hashPassword('test-password-not-used', { N: 1024, r: 8, p: 1 });
let counter = 0;

function sessionInit(cookie: string, csrfToken: string) {
  return (given: RequestInit = {}): RequestInit => {
    const headers = new Headers(given.headers);
    if (!headers.has('cookie')) headers.set('cookie', cookie);
    if (!headers.has(CSRF_HEADER)) headers.set(CSRF_HEADER, csrfToken);
    if (!headers.has('origin')) headers.set('origin', TEST_ORIGIN);
    return { ...given, headers };
  };
}

export interface StaffSession {
  member: StaffRecord;
  cookie: string;
  csrfToken: string;
  /** Adds the session cookie, CSRF token and a same-origin Origin to `init`. */
  init(init?: RequestInit): RequestInit;
  /** app.request as this member. */
  request(url: string, init?: RequestInit): Promise<Response>;
  /** app.request as this member, parsed as JSON. */
  json(url: string, init?: RequestInit): Promise<{ status: number; body: unknown }>;
}

export async function signInStaff(
  app: Pick<App, 'request'>,
  db: Database,
  clock: Clock,
  options: {
    role?: StaffRole;
    subOrgIds?: string[] | null;
    email?: string;
    name?: string;
    /** The admin who created the member's account: linked to them (console/linked-accounts.ts). */
    createdBy?: string;
  } = {},
): Promise<StaffSession> {
  const role = options.role ?? 'admin';
  counter += 1;
  const member = await createStaff(
    db,
    {
      email: options.email ?? `${role}-${counter}-${process.pid}@test.local`,
      name: options.name ?? `Test ${role} ${counter}`,
      role,
      subOrgIds: options.subOrgIds ?? null,
      password: '',
    },
    { now: clock.now(), passwordHash: await cheapHash, createdBy: options.createdBy ?? null },
  );
  const { token, row } = await createSession(db, member.id, clock.now());
  const cookie = `${SESSION_COOKIE}=${token}`;
  const init = sessionInit(cookie, row.csrfToken);
  const request = (url: string, given?: RequestInit) =>
    Promise.resolve(app.request(url, init(given)));
  return {
    member,
    cookie,
    csrfToken: row.csrfToken,
    init,
    request,
    async json(url, given) {
      const res = await request(url, given);
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
    },
  };
}

/**
 * Makes every `app.request` act as a freshly made admin unless the request
 * brings its own credentials (a Cookie or an Api-Key). For tests about
 * something else than who is calling; `anonymous` is the unpatched request.
 * The admin's session is renewed when the test clock has moved past its
 * limits, so a test that advances time still has a caller.
 */
export async function actAsAdmin(app: App, db: Database, clock: Clock) {
  const anonymous = app.request;
  let current = await signInStaff({ request: anonymous }, db, clock, { role: 'admin' });
  let lastUse = clock.now().getTime();
  const signedAt = lastUse;
  const member = current.member;
  const fresh = async () => {
    const now = clock.now().getTime();
    if (now - lastUse >= 25 * 60_000 || now - signedAt >= 7 * 3600_000) {
      const { token, row } = await createSession(db, member.id, clock.now());
      current = { ...current, cookie: `${SESSION_COOKIE}=${token}`, csrfToken: row.csrfToken };
      current.init = sessionInit(current.cookie, row.csrfToken);
    }
    lastUse = now;
    return current;
  };
  app.request = (input, init, ...rest) => {
    const headers = new Headers(init?.headers);
    if (headers.has('cookie') || headers.has('api-key')) return anonymous(input, init, ...rest);
    return fresh().then((s) => anonymous(input, s.init(init), ...rest));
  };
  const admin: StaffSession = {
    get member() {
      return member;
    },
    get cookie() {
      return current.cookie;
    },
    get csrfToken() {
      return current.csrfToken;
    },
    init: (given) => current.init(given),
    request: (url, given) => Promise.resolve(app.request(url, given)),
    json: async (url, given) => {
      const res = await app.request(url, given);
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
    },
  };
  return { admin, anonymous };
}
