import { expect } from 'vitest';
import {
  SecondFactorChallenge,
  SecondFactorSessionResponse,
  type StaffRole,
} from '#contract/auth.ts';
import type { TestApp } from './test-app.ts';
import { TEST_ORIGIN } from './staff-session.ts';
import { hashPassword } from '../auth/password.ts';
import { totpCode } from '../auth/second-factor.ts';
import { createStaff } from '../auth/staff.store.ts';

/**
 * Signing in through the real app with a second factor, for the tests of
 * sign-in, the account page and the CLI. Members are made here with a
 * known password (hashed cheaply: the parameters travel with the hash).
 */

let n = 0;

export interface TestMember {
  id: string;
  email: string;
  password: string;
  role: StaffRole;
}

export async function makeMember(
  t: Pick<TestApp, 'db' | 'clock'>,
  role: StaffRole,
  email?: string,
): Promise<TestMember> {
  n += 1;
  const address = email ?? `factor-${role}-${n}-${process.pid}@bank.test`;
  const password = `correct horse ${n} battery`;
  const row = await createStaff(
    t.db,
    { email: address, name: `Factor ${role} ${n}`, role, password },
    { now: t.clock.now(), passwordHash: await hashPassword(password, { N: 1024, r: 8, p: 1 }) },
  );
  return { id: row.id, email: address, password, role };
}

/** `ip` is an X-Forwarded-For address (apps made with trustProxy), so tests keep apart in the sign-in throttle. */
export async function postAuth(
  t: Pick<TestApp, 'anonymous'>,
  path: string,
  body: unknown,
  ip?: string,
): Promise<Response> {
  return t.anonymous(path, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Origin: TEST_ORIGIN,
      ...(ip ? { 'X-Forwarded-For': ip } : {}),
    },
    body: JSON.stringify(body),
  });
}

export async function passwordStep(
  t: Pick<TestApp, 'anonymous'>,
  member: Pick<TestMember, 'email' | 'password'>,
  ip?: string,
) {
  const res = await postAuth(
    t,
    '/auth/login',
    { email: member.email, password: member.password },
    ip,
  );
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get('set-cookie')).toBeNull();
  return SecondFactorChallenge.parse(await res.json());
}

export function codeStep(t: Pick<TestApp, 'anonymous'>, challengeId: string, code: string) {
  return postAuth(t, '/auth/login/second-factor', { challengeId, code });
}

/** The cookie a sign-in answer sets, as a Cookie header. */
export function cookieOf(res: Response): string {
  return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
}

/** Signs in for the first time: sets up the factor from the shown secret, at the test clock's time. */
export async function enrolAtSignIn(t: Pick<TestApp, 'anonymous' | 'clock'>, member: TestMember) {
  const challenge = await passwordStep(t, member);
  expect(challenge.secondFactor).toBe('enrol');
  const secret = challenge.enrolment?.secret ?? '';
  const res = await codeStep(t, challenge.challengeId, totpCode(secret, t.clock.now()));
  expect(res.status, await res.clone().text()).toBe(200);
  const session = SecondFactorSessionResponse.parse(await res.json());
  return { secret, session, cookie: cookieOf(res), recoveryCodes: session.recoveryCodes ?? [] };
}
