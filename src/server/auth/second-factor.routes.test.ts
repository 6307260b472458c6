import { and, eq } from 'drizzle-orm';
import { pino } from 'pino';
import { describe, expect } from 'vitest';
import {
  AccountSecondFactor,
  SecondFactorChallenge,
  SessionResponse,
  SecondFactorSessionResponse,
} from '#contract/auth.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { auditLog, staffFactors } from '../db/schema/console.ts';
import {
  codeStep,
  cookieOf,
  enrolAtSignIn,
  makeMember,
  passwordStep,
  postAuth,
} from '../test/second-factor-sign-in.ts';
import { TEST_ORIGIN } from '../test/staff-session.ts';
import { appFixture, appTestWith } from '../test/app-test.ts';
import { capturedLog } from '../test/captured-log.ts';
import type { TestApp } from '../test/test-app.ts';
import { totpCode } from './second-factor.ts';
import {
  CHALLENGE_ATTEMPTS,
  CHALLENGE_TTL_MS,
  FREE_MEMBER_FAILURES,
} from './second-factor.store.ts';
import { seedDemoStaff } from './staff-demo.ts';

// The second factor at sign-in, through the real app with the server's
// default policy (approvers and admins must have one). The log is kept to
// prove no secret, step id or recovery code reaches it.
// `all` and `optional` are consoles under the other two policies.
const log = capturedLog();
const appTest = appTestWith({ trustProxy: true, logger: pino({ level: 'trace' }, log.stream) })
  .extend('all', { scope: 'file' }, appFixture({ secondFactor: 'all', demoAccounts: false }))
  .extend('optional', { scope: 'file' }, appFixture({ secondFactor: 'optional' }));

async function errorOf(res: Response) {
  return ApiErrorBody.parse(await res.json());
}

async function auditRows(t: TestApp, staffId: string, action: string) {
  return t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, staffId), eq(auditLog.action, action)));
}

function as(t: TestApp, cookie: string) {
  return (url: string) => t.anonymous(url, { headers: { cookie } });
}

describe('sign-in for a member who must have a second factor', () => {
  appTest(
    'an approver without one sets it up before any session: secret and URI, then its first code',
    async ({ t }) => {
      const approver = await makeMember(t, 'approver');
      const challenge = await passwordStep(t, approver);
      expect(challenge.secondFactor).toBe('enrol');
      const { secret, otpauthUri } = challenge.enrolment ?? { secret: '', otpauthUri: '' };
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(otpauthUri).toBe(
        `otpauth://totp/Custody%20Console:${encodeURIComponent(approver.email)}?issuer=Custody%20Console&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
      );
      // The step is no session.
      expect((await t.anonymous('/auth/session')).status).toBe(401);

      const wrong = await codeStep(t, challenge.challengeId, '000000');
      expect(wrong.status).toBe(401);
      expect(await errorOf(wrong)).toMatchObject({
        code: 'SECOND_FACTOR_INVALID',
        fields: [{ field: 'code' }],
      });
      expect(wrong.headers.get('set-cookie')).toBeNull();

      const res = await codeStep(t, challenge.challengeId, totpCode(secret, t.clock.now()));
      expect(res.status).toBe(200);
      const session = SecondFactorSessionResponse.parse(await res.json());
      expect(session.member).toMatchObject({ email: approver.email, role: 'approver' });
      expect(session.recoveryCodes).toHaveLength(10);
      for (const code of session.recoveryCodes ?? [])
        expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
      expect(new Set(session.recoveryCodes).size).toBe(10);

      const account = await as(t, cookieOf(res))('/api/console/account/second-factor/');
      expect(AccountSecondFactor.parse(await account.json())).toMatchObject({
        enrolled: true,
        recoveryCodesLeft: 10,
        required: true,
        demoMember: false,
      });
      expect(await auditRows(t, approver.id, 'auth.second_factor.enrol')).toHaveLength(1);
      // Used: the step does not sign in twice.
      const again = await codeStep(t, challenge.challengeId, totpCode(secret, t.clock.now()));
      expect(await errorOf(again)).toMatchObject({ code: 'SECOND_FACTOR_STEP_EXPIRED' });
    },
  );

  appTest('a viewer signs in with the password alone', async ({ t }) => {
    const viewer = await makeMember(t, 'viewer');
    const res = await postAuth(t, '/auth/login', {
      email: viewer.email,
      password: viewer.password,
    });
    expect(res.status).toBe(200);
    expect(SessionResponse.parse(await res.json()).member.role).toBe('viewer');
    expect(cookieOf(res)).toMatch(/^cc_session=/);
  });

  appTest('a step lasts five minutes', async ({ t }) => {
    const admin = await makeMember(t, 'admin');
    const challenge = await passwordStep(t, admin);
    expect(Date.parse(challenge.expiresAt) - t.clock.now().getTime()).toBe(CHALLENGE_TTL_MS);
    t.clock.advance(CHALLENGE_TTL_MS);
    const late = await codeStep(
      t,
      challenge.challengeId,
      totpCode(challenge.enrolment?.secret ?? '', t.clock.now()),
    );
    expect(late.status).toBe(401);
    expect(await errorOf(late)).toMatchObject({ code: 'SECOND_FACTOR_STEP_EXPIRED' });
  });
});

describe('sign-in with a second factor', () => {
  appTest(
    'asks for a code, accepts each time step once (a replayed or older step is refused)',
    async ({ t }) => {
      const approver = await makeMember(t, 'approver');
      const { secret } = await enrolAtSignIn(t, approver);

      // The step of the enrolment's code is spent already.
      const first = await passwordStep(t, approver);
      expect(first).toEqual({
        secondFactor: 'required',
        challengeId: first.challengeId,
        expiresAt: first.expiresAt,
      });
      const sameStep = await codeStep(t, first.challengeId, totpCode(secret, t.clock.now()));
      expect(sameStep.status).toBe(401);
      expect(await errorOf(sameStep)).toMatchObject({ code: 'SECOND_FACTOR_REPLAYED' });

      t.clock.advance(30_000);
      const next = await codeStep(t, first.challengeId, totpCode(secret, t.clock.now()));
      expect(next.status).toBe(200);
      expect(SessionResponse.parse(await next.json()).member.email).toBe(approver.email);

      // Seen over a shoulder: the same code again, on a new sign-in, within its 30 s.
      const second = await passwordStep(t, approver);
      const replay = await codeStep(t, second.challengeId, totpCode(secret, t.clock.now()));
      expect(await errorOf(replay)).toMatchObject({ code: 'SECOND_FACTOR_REPLAYED' });
      // The previous step is inside the ±1 window but older than the last accepted: refused too.
      const older = await codeStep(
        t,
        second.challengeId,
        totpCode(secret, new Date(t.clock.now().getTime() - 30_000)),
      );
      expect(await errorOf(older)).toMatchObject({ code: 'SECOND_FACTOR_REPLAYED' });
      // The next step's code (a phone 30 s ahead) is newer: accepted.
      const ahead = await codeStep(
        t,
        second.challengeId,
        totpCode(secret, new Date(t.clock.now().getTime() + 30_000)),
      );
      expect(ahead.status).toBe(200);
      // Two steps ahead is outside the window.
      const third = await passwordStep(t, approver);
      const far = await codeStep(
        t,
        third.challengeId,
        totpCode(secret, new Date(t.clock.now().getTime() + 90_000)),
      );
      expect(await errorOf(far)).toMatchObject({ code: 'SECOND_FACTOR_INVALID' });
      expect(await auditRows(t, approver.id, 'auth.second_factor')).toHaveLength(4);
    },
  );

  appTest('a recovery code signs in once, typed in any case and spacing', async ({ t }) => {
    const admin = await makeMember(t, 'admin');
    const { recoveryCodes } = await enrolAtSignIn(t, admin);
    const [code, other] = recoveryCodes;
    const first = await passwordStep(t, admin);
    const res = await codeStep(t, first.challengeId, code ?? '');
    expect(res.status).toBe(200);
    const signedIn = await auditRows(t, admin.id, 'auth.login');
    expect(signedIn.at(-1)?.summary).toBe('Signed in as admin with a recovery code (9 left)');

    const second = await passwordStep(t, admin);
    const reused = await codeStep(t, second.challengeId, code ?? '');
    expect(reused.status).toBe(401);
    expect(await errorOf(reused)).toMatchObject({ code: 'SECOND_FACTOR_INVALID' });
    const typed = ` ${(other ?? '').toUpperCase().replace('-', ' ')} `;
    expect((await codeStep(t, second.challengeId, typed)).status).toBe(200);
  });

  appTest('refuses a malformed code naming the field, without counting it', async ({ t }) => {
    const admin = await makeMember(t, 'admin');
    await enrolAtSignIn(t, admin);
    const step = await passwordStep(t, admin);
    const res = await codeStep(t, step.challengeId, '12345');
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/code must be the 6-digit code/);
    expect(await auditRows(t, admin.id, 'auth.second_factor')).toHaveLength(0);
  });
});

describe('wrong codes', () => {
  appTest(
    'five per step, then the password again; then the member waits 1 s, 2 s…; each audited',
    async ({ t }) => {
      const approver = await makeMember(t, 'approver');
      const { secret } = await enrolAtSignIn(t, approver);
      t.clock.advance(30_000);
      const first = await passwordStep(t, approver);
      for (let i = 1; i <= CHALLENGE_ATTEMPTS; i += 1) {
        const res = await codeStep(t, first.challengeId, '000000');
        expect(res.status).toBe(401);
        const body = await errorOf(res);
        expect(body.code).toBe('SECOND_FACTOR_INVALID');
        expect(body.message).toMatch(
          i < CHALLENGE_ATTEMPTS ? `${CHALLENGE_ATTEMPTS - i} tr` : 'sign in again',
        );
      }
      const spent = await codeStep(t, first.challengeId, totpCode(secret, t.clock.now()));
      expect(spent.status).toBe(401);
      expect(await errorOf(spent)).toMatchObject({
        code: 'SECOND_FACTOR_STEP_EXPIRED',
        message: 'Too many wrong codes for this sign-in; sign in again with your password',
      });

      // A new step (the password is known): the member's own count goes on, and five wrong
      // codes an hour are all it allows before the waits: the sixth code is not checked.
      const second = await passwordStep(t, approver);
      expect(FREE_MEMBER_FAILURES).toBe(CHALLENGE_ATTEMPTS);
      const wait1 = await codeStep(t, second.challengeId, totpCode(secret, t.clock.now()));
      expect(wait1.status).toBe(429);
      expect(wait1.headers.get('Retry-After')).toBe('1');
      expect(await errorOf(wait1)).toMatchObject({ code: 'SECOND_FACTOR_RATE_LIMITED' });
      t.clock.advance(1000);
      expect((await codeStep(t, second.challengeId, '000000')).status).toBe(401);
      const wait2 = await codeStep(t, second.challengeId, totpCode(secret, t.clock.now()));
      expect(wait2.status).toBe(429);
      expect(wait2.headers.get('Retry-After')).toBe('2');
      t.clock.advance(2000);
      const ok = await codeStep(t, second.challengeId, totpCode(secret, t.clock.now()));
      expect(ok.status).toBe(200);
      // A success clears the member's count.
      const [factor] = await t.db
        .select()
        .from(staffFactors)
        .where(eq(staffFactors.staffId, approver.id));
      expect(factor).toMatchObject({ failures: 0, lastFailureAt: null });

      const rows = await auditRows(t, approver.id, 'auth.second_factor');
      expect(rows.filter((r) => r.outcome === 'failed')).toHaveLength(CHALLENGE_ATTEMPTS + 1);
      expect(rows.filter((r) => r.outcome === 'denied')).toHaveLength(2);
      expect(rows.every((r) => r.actorName === approver.email)).toBe(true);
    },
  );

  appTest('forty at once on one step: five are checked', async ({ t }) => {
    const admin = await makeMember(t, 'admin');
    await enrolAtSignIn(t, admin);
    const step = await passwordStep(t, admin);
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        codeStep(t, step.challengeId, String(100000 + i)).then(
          async (r) => (await errorOf(r)).code,
        ),
      ),
    );
    expect(answers.filter((c) => c === 'SECOND_FACTOR_INVALID')).toHaveLength(CHALLENGE_ATTEMPTS);
    expect(answers.filter((c) => c === 'SECOND_FACTOR_STEP_EXPIRED')).toHaveLength(
      40 - CHALLENGE_ATTEMPTS,
    );
  });

  appTest(
    'forty at once over eight steps: the member allowance is checked, no more',
    async ({ t }) => {
      const admin = await makeMember(t, 'admin');
      await enrolAtSignIn(t, admin);
      const steps = [];
      for (let i = 0; i < 8; i += 1) steps.push(await passwordStep(t, admin, `192.0.2.${i + 1}`));
      const answers = await Promise.all(
        steps.flatMap((step) =>
          Array.from({ length: 5 }, (_, i) =>
            codeStep(t, step.challengeId, String(200000 + i)).then(
              async (r) => (await errorOf(r)).code,
            ),
          ),
        ),
      );
      // Tries up to the allowance pass; the next waits.
      expect(answers.filter((c) => c === 'SECOND_FACTOR_INVALID')).toHaveLength(
        FREE_MEMBER_FAILURES,
      );
      expect(answers.filter((c) => c === 'SECOND_FACTOR_RATE_LIMITED')).toHaveLength(
        40 - FREE_MEMBER_FAILURES,
      );
    },
  );
});

describe('who is exempt, and the policy', () => {
  appTest(
    "the sandbox's demo members sign in with their published password alone",
    async ({ t }) => {
      await seedDemoStaff(t.db, t.clock.now());
      const res = await postAuth(t, '/auth/login', {
        email: 'admin@sandbox.local',
        password: 'sandbox-admin-pass',
      });
      expect(res.status).toBe(200);
      expect(SessionResponse.parse(await res.json()).member.role).toBe('admin');
      const account = await as(t, cookieOf(res))('/api/console/account/second-factor/');
      expect(AccountSecondFactor.parse(await account.json())).toMatchObject({
        enrolled: false,
        required: false,
        demoMember: true,
      });
    },
  );

  appTest(
    'STAFF_SECOND_FACTOR=all asks every member; optional only those who set one up; outside the sandbox a demo email is no exemption',
    async ({ all, optional }) => {
      const viewer = await makeMember(all, 'viewer');
      expect((await passwordStep(all, viewer)).secondFactor).toBe('enrol');
      const lookalike = await makeMember(all, 'admin', 'admin@sandbox.local');
      expect((await passwordStep(all, lookalike)).secondFactor).toBe('enrol');

      const admin = await makeMember(optional, 'admin');
      const direct = await postAuth(optional, '/auth/login', {
        email: admin.email,
        password: admin.password,
      });
      expect(SessionResponse.parse(await direct.json()).member.role).toBe('admin');
      await enrolAtSignIn(all, await makeMember(all, 'initiator'));
    },
  );
});

describe('secrets', () => {
  appTest(
    'no TOTP secret, step id or recovery code reaches the log, nor any answer after enrolment',
    async ({ t }) => {
      const approver = await makeMember(t, 'approver');
      const challenge = await passwordStep(t, approver);
      const secret = challenge.enrolment?.secret ?? '';
      const code = totpCode(secret, t.clock.now());
      const res = await codeStep(t, challenge.challengeId, code);
      const { recoveryCodes = [] } = SecondFactorSessionResponse.parse(await res.json());
      t.clock.advance(30_000);
      const next = await passwordStep(t, approver);
      expect(JSON.stringify(next)).not.toContain(secret);
      const account = await as(t, cookieOf(res))('/api/console/account/second-factor/');
      expect(await account.text()).not.toContain(secret);
      for (const value of [secret, challenge.challengeId, next.challengeId, ...recoveryCodes])
        expect(log.text()).not.toContain(value);
      expect(log.text()).toContain('/auth/login/second-factor');
      // The table keeps only hashes of what the browser holds.
      expect(SecondFactorChallenge.parse(next).challengeId).not.toBe('');
      const [row] = await t.db.select().from(auditLog).where(eq(auditLog.entityId, approver.id));
      expect(JSON.stringify(row)).not.toContain(secret);
    },
  );

  appTest('a step refuses a foreign Origin', async ({ t }) => {
    const approver = await makeMember(t, 'approver');
    const challenge = await passwordStep(t, approver);
    const res = await t.anonymous('/auth/login/second-factor', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example' },
      body: JSON.stringify({ challengeId: challenge.challengeId, code: '123456' }),
    });
    expect(res.status).toBe(403);
    expect(TEST_ORIGIN).not.toBe('https://evil.example');
  });
});
