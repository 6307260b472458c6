import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import {
  AccountSecondFactor,
  CSRF_HEADER,
  EnrolmentStarted,
  PasswordChanged,
  RecoveryCodesResponse,
  SessionResponse,
} from '#contract/auth.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { auditLog } from '../db/schema/console.ts';
import {
  codeStep,
  cookieOf,
  enrolAtSignIn,
  makeMember,
  passwordStep,
  postAuth,
  type TestMember,
} from '../test/second-factor-sign-in.ts';
import { TEST_ORIGIN } from '../test/staff-session.ts';
import { appTest } from '../test/app-test.ts';
import type { TestApp } from '../test/test-app.ts';
import { totpCode } from './second-factor.ts';
import { FREE_MEMBER_FAILURES } from './second-factor.store.ts';
import { createSession } from './session.store.ts';
import { seedDemoStaff } from './staff-demo.ts';

// The account page's endpoints: a member's own password and second factor.
interface Signed {
  cookie: string;
  csrf: string;
  post(url: string, body: unknown): Promise<Response>;
  get(url: string): Promise<Response>;
}

function signed(t: TestApp, cookie: string, csrf: string): Signed {
  const headers = { cookie, [CSRF_HEADER]: csrf, Origin: TEST_ORIGIN };
  return {
    cookie,
    csrf,
    post: async (url, body) =>
      t.anonymous(url, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
    get: async (url) => t.anonymous(url, { headers }),
  };
}

/** Signs in with the password alone (a role that needs no factor). */
async function signInWithPassword(t: TestApp, member: Pick<TestMember, 'email' | 'password'>) {
  const res = await postAuth(t, '/auth/login', { email: member.email, password: member.password });
  expect(res.status, await res.clone().text()).toBe(200);
  return signed(t, cookieOf(res), SessionResponse.parse(await res.json()).csrfToken);
}

async function errorOf(res: Response) {
  return ApiErrorBody.parse(await res.json());
}

async function audited(t: TestApp, staffId: string, action: string) {
  return t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, staffId), eq(auditLog.action, action)));
}

describe('POST /api/console/account/password/', () => {
  appTest(
    'checks the current password and the rules, then ends every other session; audited',
    async ({ t }) => {
      const member = await makeMember(t, 'initiator');
      const a = await signInWithPassword(t, member);
      const b = await signInWithPassword(t, member);
      const direct = await createSession(t.db, member.id, t.clock.now());
      const c = signed(t, `cc_session=${direct.token}`, direct.row.csrfToken);

      const wrong = await a.post('/api/console/account/password/', {
        currentPassword: 'not my password',
        newPassword: 'a brand new passphrase',
      });
      expect(wrong.status).toBe(400);
      expect(await errorOf(wrong)).toMatchObject({
        code: 'WRONG_PASSWORD',
        fields: [{ field: 'currentPassword', message: 'is not correct' }],
      });
      const short = await a.post('/api/console/account/password/', {
        currentPassword: member.password,
        newPassword: 'too short',
      });
      expect(short.status).toBe(400);
      expect((await errorOf(short)).message).toContain(
        'newPassword must be at least 12 characters',
      );
      const same = await a.post('/api/console/account/password/', {
        currentPassword: member.password,
        newPassword: member.password,
      });
      expect(await errorOf(same)).toMatchObject({ fields: [{ field: 'newPassword' }] });

      const newPassword = 'a brand new passphrase';
      const res = await a.post('/api/console/account/password/', {
        currentPassword: member.password,
        newPassword,
      });
      expect(res.status).toBe(200);
      expect(PasswordChanged.parse(await res.json())).toEqual({ otherSessionsEnded: 2 });
      expect((await a.get('/auth/session')).status).toBe(200);
      expect((await b.get('/auth/session')).status).toBe(401);
      expect((await c.get('/auth/session')).status).toBe(401);

      const old = await postAuth(t, '/auth/login', {
        email: member.email,
        password: member.password,
      });
      expect(old.status).toBe(401);
      await signInWithPassword(t, { email: member.email, password: newPassword });

      const rows = await audited(t, member.id, 'account.password');
      expect(rows.map((r) => [r.outcome, r.summary])).toEqual([
        ['failed', 'Refused: the current password was not correct'],
        ['success', 'Changed their password; 2 other session(s) ended'],
      ]);
      for (const row of rows) expect(row.summary).not.toContain(newPassword);
    },
  );

  appTest('wrong current passwords are counted per member, with growing waits', async ({ t }) => {
    const member = await makeMember(t, 'viewer');
    const a = await signInWithPassword(t, member);
    const change = () =>
      a.post('/api/console/account/password/', {
        currentPassword: 'not my password',
        newPassword: 'another passphrase here',
      });
    // Five wrong passwords are checked; the sixth waits.
    for (let i = 0; i < FREE_MEMBER_FAILURES; i += 1) expect((await change()).status).toBe(400);
    const waited = await change();
    expect(waited.status).toBe(429);
    expect(waited.headers.get('Retry-After')).toBe('1');
    expect(await errorOf(waited)).toMatchObject({ code: 'SECOND_FACTOR_RATE_LIMITED' });
    const rows = await audited(t, member.id, 'account.password');
    expect(rows).toHaveLength(FREE_MEMBER_FAILURES + 1);
  });

  appTest("the sandbox's demo members keep their published password", async ({ t }) => {
    await seedDemoStaff(t.db, t.clock.now());
    const demo = await signInWithPassword(t, {
      email: 'viewer@sandbox.local',
      password: 'sandbox-viewer-pass',
    });
    const res = await demo.post('/api/console/account/password/', {
      currentPassword: 'sandbox-viewer-pass',
      newPassword: 'mine and mine alone',
    });
    expect(res.status).toBe(403);
    expect(await errorOf(res)).toMatchObject({ code: 'DEMO_MEMBER_FIXED' });
    const enrol = await demo.post('/api/console/account/second-factor/enrolment/', {
      password: 'sandbox-viewer-pass',
    });
    expect(await errorOf(enrol)).toMatchObject({ code: 'DEMO_MEMBER_FIXED' });
  });
});

describe('the second factor from the account page', () => {
  appTest(
    'a member sets up a factor (password, then its first code); sign-in asks for it from then on',
    async ({ t }) => {
      const member = await makeMember(t, 'viewer');
      const a = await signInWithPassword(t, member);
      const status = await a.get('/api/console/account/second-factor/');
      expect(AccountSecondFactor.parse(await status.json())).toEqual({
        enrolled: false,
        enrolledAt: null,
        recoveryCodesLeft: 0,
        required: false,
        demoMember: false,
      });
      const refused = await a.post('/api/console/account/second-factor/enrolment/', {
        password: 'not my password',
      });
      expect(await errorOf(refused)).toMatchObject({ code: 'WRONG_PASSWORD' });
      const started = EnrolmentStarted.parse(
        await (
          await a.post('/api/console/account/second-factor/enrolment/', {
            password: member.password,
          })
        ).json(),
      );
      const wrong = await a.post('/api/console/account/second-factor/enrolment/confirm/', {
        enrolmentId: started.enrolmentId,
        code: '000000',
      });
      expect(wrong.status).toBe(400);
      expect(await errorOf(wrong)).toMatchObject({ code: 'SECOND_FACTOR_INVALID' });
      const confirmed = await a.post('/api/console/account/second-factor/enrolment/confirm/', {
        enrolmentId: started.enrolmentId,
        code: totpCode(started.secret, t.clock.now()),
      });
      expect(confirmed.status).toBe(200);
      expect(RecoveryCodesResponse.parse(await confirmed.json()).recoveryCodes).toHaveLength(10);

      const step = await passwordStep(t, member);
      expect(step.secondFactor).toBe('required');
      t.clock.advance(30_000);
      const res = await codeStep(t, step.challengeId, totpCode(started.secret, t.clock.now()));
      expect(res.status).toBe(200);
      // Another member cannot finish this member's set-up.
      const other = await signInWithPassword(t, await makeMember(t, 'viewer'));
      const stolen = await other.post('/api/console/account/second-factor/enrolment/confirm/', {
        enrolmentId: started.enrolmentId,
        code: totpCode(started.secret, t.clock.now()),
      });
      expect(await errorOf(stolen)).toMatchObject({ code: 'SECOND_FACTOR_STEP_EXPIRED' });
    },
  );

  appTest(
    'replacing a factor: the old key and recovery codes stop working, other sessions end',
    async ({ t }) => {
      const approver = await makeMember(t, 'approver');
      const first = await enrolAtSignIn(t, approver);
      const a = signed(t, first.cookie, first.session.csrfToken);
      t.clock.advance(30_000);
      const step = await passwordStep(t, approver);
      const other = await codeStep(t, step.challengeId, totpCode(first.secret, t.clock.now()));
      expect(other.status).toBe(200);

      const started = EnrolmentStarted.parse(
        await (
          await a.post('/api/console/account/second-factor/enrolment/', {
            password: approver.password,
          })
        ).json(),
      );
      expect(started.secret).not.toBe(first.secret);
      t.clock.advance(30_000);
      const confirmed = await a.post('/api/console/account/second-factor/enrolment/confirm/', {
        enrolmentId: started.enrolmentId,
        code: totpCode(started.secret, t.clock.now()),
      });
      const body = RecoveryCodesResponse.parse(await confirmed.json());
      expect(body.otherSessionsEnded).toBe(1);
      expect((await a.get('/auth/session')).status).toBe(200);
      expect(
        (await t.anonymous('/auth/session', { headers: { cookie: cookieOf(other) } })).status,
      ).toBe(401);

      t.clock.advance(30_000);
      const next = await passwordStep(t, approver);
      const oldKey = await codeStep(t, next.challengeId, totpCode(first.secret, t.clock.now()));
      expect(await errorOf(oldKey)).toMatchObject({ code: 'SECOND_FACTOR_INVALID' });
      const oldCode = await codeStep(t, next.challengeId, first.recoveryCodes[0] ?? '');
      expect(await errorOf(oldCode)).toMatchObject({ code: 'SECOND_FACTOR_INVALID' });
      const newCode = await codeStep(t, next.challengeId, body.recoveryCodes[0] ?? '');
      expect(newCode.status).toBe(200);
      expect(await audited(t, approver.id, 'account.second_factor.enrol')).toHaveLength(1);
    },
  );

  appTest(
    'new recovery codes replace the old ones; they need a factor and the password',
    async ({ t }) => {
      const viewer = await signInWithPassword(t, await makeMember(t, 'viewer'));
      const none = await viewer.post('/api/console/account/recovery-codes/', {
        password: 'whatever it is',
      });
      expect(none.status).toBe(409);

      const admin = await makeMember(t, 'admin');
      const { cookie, session, recoveryCodes } = await enrolAtSignIn(t, admin);
      const a = signed(t, cookie, session.csrfToken);
      const wrong = await a.post('/api/console/account/recovery-codes/', { password: 'nope nope' });
      expect(await errorOf(wrong)).toMatchObject({
        code: 'WRONG_PASSWORD',
        fields: [{ field: 'password' }],
      });
      const res = await a.post('/api/console/account/recovery-codes/', {
        password: admin.password,
      });
      const fresh = RecoveryCodesResponse.parse(await res.json()).recoveryCodes;
      expect(fresh).toHaveLength(10);
      expect(fresh.some((code) => recoveryCodes.includes(code))).toBe(false);
      const status = await a.get('/api/console/account/second-factor/');
      expect(AccountSecondFactor.parse(await status.json())).toMatchObject({
        enrolled: true,
        recoveryCodesLeft: 10,
        required: true,
      });

      const step = await passwordStep(t, admin);
      expect(
        await errorOf(await codeStep(t, step.challengeId, recoveryCodes[1] ?? '')),
      ).toMatchObject({ code: 'SECOND_FACTOR_INVALID' });
      expect((await codeStep(t, step.challengeId, fresh[1] ?? '')).status).toBe(200);
      expect(await audited(t, admin.id, 'account.recovery_codes')).toHaveLength(2);
    },
  );
});

describe('PATCH /api/console/account/display/', () => {
  /** Signs in with the browser's zone, as the SPA does. */
  async function signInFrom(
    t: TestApp,
    member: Pick<TestMember, 'email' | 'password'>,
    timeZone?: string,
  ) {
    const res = await postAuth(t, '/auth/login', {
      email: member.email,
      password: member.password,
      ...(timeZone === undefined ? {} : { timeZone }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    const session = SessionResponse.parse(await res.json());
    return { session, as: signed(t, cookieOf(res), session.csrfToken) };
  }

  function patch(t: TestApp, as: Signed, body: unknown) {
    return t.anonymous('/api/console/account/display/', {
      method: 'PATCH',
      headers: {
        cookie: as.cookie,
        [CSRF_HEADER]: as.csrf,
        Origin: TEST_ORIGIN,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    });
  }

  async function sessionOf(as: Signed) {
    const res = await as.get('/auth/session');
    expect(res.status).toBe(200);
    return SessionResponse.parse(await res.json());
  }

  appTest(
    "a member's zone and scheme apply to their session at once, without signing in again; audited",
    async ({ t }) => {
      const member = await makeMember(t, 'viewer');
      const { session, as } = await signInFrom(t, member, 'Europe/Berlin');
      expect(session.display).toEqual({
        timeZone: 'Europe/Berlin',
        timeZoneSource: 'browser',
        chosenTimeZone: null,
        browserTimeZone: 'Europe/Berlin',
        colorScheme: 'system',
      });

      const res = await patch(t, as, { timeZone: 'America/Los_Angeles', colorScheme: 'dark' });
      expect(res.status, await res.clone().text()).toBe(200);
      const chosen = {
        timeZone: 'America/Los_Angeles',
        timeZoneSource: 'member',
        chosenTimeZone: 'America/Los_Angeles',
        browserTimeZone: 'Europe/Berlin',
        colorScheme: 'dark',
      };
      expect(await res.json()).toEqual(chosen);
      expect((await sessionOf(as)).display).toEqual(chosen);

      // A session begun elsewhere has its own browser default, and the member's choice over it.
      const other = await signInFrom(t, member, 'Asia/Kolkata');
      expect(other.session.display).toMatchObject({
        timeZone: 'America/Los_Angeles',
        timeZoneSource: 'member',
        browserTimeZone: 'Asia/Kolkata',
      });

      // null goes back to the browser's zone; the scheme, not named, stays.
      const back = await patch(t, as, { timeZone: null });
      expect(back.status).toBe(200);
      expect((await sessionOf(as)).display).toEqual({
        timeZone: 'Europe/Berlin',
        timeZoneSource: 'browser',
        chosenTimeZone: null,
        browserTimeZone: 'Europe/Berlin',
        colorScheme: 'dark',
      });

      const rows = await audited(t, member.id, 'account.display');
      expect(rows.map((r) => [r.outcome, r.summary])).toEqual([
        [
          'success',
          "Changed their display settings: time zone America/Los_Angeles (was their browser's zone); colour scheme dark (was system)",
        ],
        [
          'success',
          "Changed their display settings: time zone their browser's zone (was America/Los_Angeles)",
        ],
      ]);
      expect(rows.every((r) => r.actorId === member.id)).toBe(true);
    },
  );

  appTest(
    'refuses a zone it does not know, or a scheme it has not, naming the field and the rule; audited',
    async ({ t }) => {
      const member = await makeMember(t, 'initiator');
      const { as } = await signInFrom(t, member, 'UTC');
      for (const [body, field, rule] of [
        [{ timeZone: 'Mars/Olympus_Mons' }, 'timeZone', 'must be an IANA time zone name'],
        [{ timeZone: '+05:30' }, 'timeZone', 'must be an IANA time zone name'],
        [{ timeZone: 'x'.repeat(5000) }, 'timeZone', 'must be an IANA time zone name'],
        [{ timeZone: 42 }, 'timeZone', 'must be an IANA time zone name'],
        [{ colorScheme: 'sepia' }, 'colorScheme', 'must be one of system, light or dark'],
      ] as const) {
        const res = await patch(t, as, body);
        expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
        const error = await errorOf(res);
        expect(error.code).toBe('VALIDATION_ERROR');
        expect(error.fields?.[0]?.field).toBe(field);
        expect(error.fields?.[0]?.message).toContain(rule);
      }
      expect((await sessionOf(as)).display.timeZone).toBe('UTC');
      // Recorded by the audit middleware, in the member's name.
      const rows = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.actorId, member.id), eq(auditLog.action, 'account.display')));
      expect(rows).toHaveLength(5);
      expect(rows.every((r) => r.outcome === 'failed')).toBe(true);
      expect(rows[0]?.summary).toContain('timeZone');
    },
  );

  appTest(
    'a sign-in with a second factor keeps the zone the browser sends with the code',
    async ({ t }) => {
      const member = await makeMember(t, 'approver');
      const { secret } = await enrolAtSignIn(t, member);
      t.clock.advance(30_000);
      const challenge = await passwordStep(t, member);
      const res = await postAuth(t, '/auth/login/second-factor', {
        challengeId: challenge.challengeId,
        code: totpCode(secret, t.clock.now()),
        timeZone: 'Pacific/Chatham',
      });
      expect(res.status, await res.clone().text()).toBe(200);
      expect(SessionResponse.parse(await res.json()).display).toMatchObject({
        timeZone: 'Pacific/Chatham',
        timeZoneSource: 'browser',
      });
    },
  );

  appTest(
    "takes a zone in Intl's own spelling whatever its case, and any zone Intl knows",
    async ({ t }) => {
      const member = await makeMember(t, 'viewer');
      const { as } = await signInFrom(t, member);
      for (const [given, kept] of [
        ['america/los_angeles', 'America/Los_Angeles'],
        ['Asia/Kolkata', 'Asia/Kolkata'],
        ['Pacific/Chatham', 'Pacific/Chatham'],
        ['utc', 'UTC'],
      ] as const) {
        const res = await patch(t, as, { timeZone: given });
        expect(res.status).toBe(200);
        expect((await sessionOf(as)).display.chosenTimeZone).toBe(kept);
      }
    },
  );
});
