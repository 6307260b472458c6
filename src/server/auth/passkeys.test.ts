import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import {
  AccountPasskeys,
  CSRF_HEADER,
  Passkey,
  PasskeyRegistrationStarted,
  SecondFactorSessionResponse,
  SessionResponse,
  type PasskeyRequestOptions,
  type SecondFactorChallenge,
} from '#contract/auth.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { auditLog, staffPasskeys } from '../db/schema/console.ts';
import { appFixture, appTestWith } from '../test/app-test.ts';
import {
  codeStep,
  cookieOf,
  enrolAtSignIn,
  makeMember,
  passwordStep,
  postAuth,
  type TestMember,
} from '../test/second-factor-sign-in.ts';
import { SoftAuthenticator, type SoftCredential, type Tamper } from '../test/soft-authenticator.ts';
import { TEST_ORIGIN } from '../test/staff-session.ts';
import type { TestApp } from '../test/test-app.ts';
import { resetFactor } from './credentials.ts';
import { totpCode } from './second-factor.ts';
import { FREE_MEMBER_FAILURES } from './second-factor.store.ts';
import { DEMO_STAFF, seedDemoStaff } from './staff-demo.ts';

// Passkeys through the real app: registered on the account page, used as the
// second factor at sign-in, with real WebAuthn answers (ES256, attestation
// `none`) from a software authenticator. `quiet` is a console that does not
// remind approvers and admins to register one (STAFF_PASSKEY_PROMPT=off).
const appTest = appTestWith({ trustProxy: true }).extend(
  'quiet',
  { scope: 'file' },
  appFixture({ passkeyPrompt: false }),
);

let ips = 0;
/** Each test's sign-ins from an address of their own: the sign-in throttle counts per address too. */
const nextIp = () => `198.51.100.${(ips += 1)}`;

async function errorOf(res: Response) {
  return ApiErrorBody.parse(await res.json());
}

interface Member extends TestMember {
  cookie: string;
  csrf: string;
  authenticator: SoftAuthenticator;
  post(url: string, body: unknown): Promise<Response>;
  get(url: string): Promise<Response>;
}

/** An approver signed in with the authenticator app they set up at their first sign-in. */
async function approver(t: TestApp, role: 'approver' | 'admin' = 'approver'): Promise<Member> {
  const member = await makeMember(t, role);
  const { session, cookie, secret } = await enrolAtSignIn(t, member);
  // The enrolment's code step is spent: later code sign-ins wait for the next one.
  void secret;
  const headers = { cookie, [CSRF_HEADER]: session.csrfToken, Origin: TEST_ORIGIN };
  return {
    ...member,
    cookie,
    csrf: session.csrfToken,
    authenticator: new SoftAuthenticator(),
    post: async (url, body) =>
      t.anonymous(url, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
    get: async (url) => t.anonymous(url, { headers }),
  };
}

const PASSKEYS = '/api/console/account/passkeys/';

/** Registers a new passkey of `member.authenticator` named `name`. */
async function register(
  member: Member,
  name: string,
  tamper: Tamper = {},
): Promise<{ res: Response; stored: SoftCredential }> {
  const started = await member.post(`${PASSKEYS}registration/`, { password: member.password });
  expect(started.status, await started.clone().text()).toBe(200);
  const { registrationId, options } = PasskeyRegistrationStarted.parse(await started.json());
  const { credential, stored } = member.authenticator.create(options, TEST_ORIGIN, tamper);
  const res = await member.post(PASSKEYS, { registrationId, name, credential });
  return { res, stored };
}

/** The password step, which must offer the member's passkeys. */
async function passkeyStep(t: TestApp, member: TestMember, ip = nextIp()) {
  const step = await passwordStep(t, member, ip);
  expect(step.secondFactor).toBe('required');
  expect(step.passkey).toBeDefined();
  return step as SecondFactorChallenge & { passkey: PasskeyRequestOptions };
}

async function signInWith(
  t: TestApp,
  step: SecondFactorChallenge,
  credential: unknown,
  ip = nextIp(),
): Promise<Response> {
  return postAuth(t, '/auth/login/passkey', { challengeId: step.challengeId, credential }, ip);
}

async function passkeyRow(t: TestApp, credentialId: string) {
  const [row] = await t.db
    .select()
    .from(staffPasskeys)
    .where(eq(staffPasskeys.credentialId, credentialId));
  return row;
}

async function auditSummaries(t: TestApp, staffId: string, action: string) {
  const rows = await t.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, staffId), eq(auditLog.action, action)));
  return rows.map((row) => `${row.outcome}: ${row.summary}`);
}

describe('registering a passkey on the account page', () => {
  appTest(
    'asks for the password again, checks the new credential, lists it by name and audits it',
    async ({ t }) => {
      const member = await approver(t);
      // Reminded until they have one.
      const before = await member.get('/auth/session');
      expect(SessionResponse.parse(await before.json()).askForPasskey).toBe(true);
      expect(AccountPasskeys.parse(await (await member.get(PASSKEYS)).json())).toEqual({
        passkeys: [],
        asked: true,
        demoMember: false,
      });

      const wrong = await member.post(`${PASSKEYS}registration/`, { password: 'not my password' });
      expect(wrong.status).toBe(400);
      expect(await errorOf(wrong)).toMatchObject({
        code: 'WRONG_PASSWORD',
        fields: [{ field: 'password' }],
      });

      const started = await member.post(`${PASSKEYS}registration/`, { password: member.password });
      const { registrationId, options } = PasskeyRegistrationStarted.parse(await started.json());
      expect(options.rp).toEqual({ name: 'Custody Console', id: 'localhost' });
      expect(options.user.name).toBe(member.email);
      expect(options.attestation).toBe('none');
      const { credential } = member.authenticator.create(options, TEST_ORIGIN);
      const res = await member.post(PASSKEYS, {
        registrationId,
        name: '  Work laptop ',
        credential,
      });
      expect(res.status, await res.clone().text()).toBe(201);
      const added = Passkey.parse(await res.json());
      expect(added).toMatchObject({
        name: 'Work laptop',
        kind: 'passkey',
        createdAt: t.clock.now().toISOString(),
        lastUsedAt: null,
      });
      // The same registration does not add a second one.
      const again = await member.post(PASSKEYS, { registrationId, name: 'Again', credential });
      expect(again.status).toBe(400);
      expect(await errorOf(again)).toMatchObject({ code: 'SECOND_FACTOR_STEP_EXPIRED' });

      const listed = AccountPasskeys.parse(await (await member.get(PASSKEYS)).json());
      expect(listed).toEqual({ passkeys: [added], asked: false, demoMember: false });
      const after = await member.get('/auth/session');
      expect(SessionResponse.parse(await after.json()).askForPasskey).toBeUndefined();
      expect(await auditSummaries(t, member.id, 'account.passkey.register')).toEqual([
        'success: Registered a passkey “Work laptop”',
      ]);
      expect(await auditSummaries(t, member.id, 'account.passkey.start')).toEqual([
        'failed: Refused: the current password was not correct',
        'success: Began registering a passkey for http://localhost',
      ]);
    },
  );

  appTest('a credential made for another origin or relying party is refused', async ({ t }) => {
    const member = await approver(t);
    for (const tamper of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }]) {
      const { res } = await register(member, 'Elsewhere', tamper);
      expect(res.status).toBe(400);
      expect(await errorOf(res)).toMatchObject({
        code: 'PASSKEY_INVALID',
        fields: [{ field: 'credential' }],
      });
    }
    expect(
      await t.db.select().from(staffPasskeys).where(eq(staffPasskeys.staffId, member.id)),
    ).toEqual([]);
  });

  appTest("the sandbox's shared demo members cannot register one", async ({ t }) => {
    await seedDemoStaff(t.db, t.clock.now());
    const demo = DEMO_STAFF.find((d) => d.role === 'approver');
    const res = await postAuth(
      t,
      '/auth/login',
      { email: demo?.email, password: demo?.password },
      nextIp(),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    const session = SessionResponse.parse(await res.json());
    expect(session.askForPasskey).toBeUndefined();
    const refused = await t.anonymous(`${PASSKEYS}registration/`, {
      method: 'POST',
      headers: {
        cookie: cookieOf(res),
        [CSRF_HEADER]: session.csrfToken,
        Origin: TEST_ORIGIN,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ password: demo?.password }),
    });
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toMatchObject({ code: 'DEMO_MEMBER_FIXED' });
  });

  appTest('a console with STAFF_PASSKEY_PROMPT=off does not remind anyone', async ({ quiet }) => {
    const member = await makeMember(quiet, 'admin');
    const { session } = await enrolAtSignIn(quiet, member);
    expect(session.askForPasskey).toBeUndefined();
  });
});

describe('signing in with a passkey', () => {
  appTest(
    'after the password, the step offers the passkey; its assertion starts the session and records the use',
    async ({ t }) => {
      const member = await approver(t);
      const { stored } = await register(member, 'Phone');
      const step = await passkeyStep(t, member);
      // The authenticator app stays available beside it.
      expect(step.codes).toBe(true);
      expect(step.passkey.rpId).toBe('localhost');
      expect(step.passkey.allowCredentials).toEqual([
        { id: stored.id, type: 'public-key', transports: ['internal'] },
      ]);
      t.clock.advance(1000);
      const res = await signInWith(t, step, member.authenticator.get(step.passkey, TEST_ORIGIN));
      expect(res.status, await res.clone().text()).toBe(200);
      const session = SecondFactorSessionResponse.parse(await res.json());
      expect(session.member.email).toBe(member.email);
      expect(cookieOf(res)).toMatch(/^cc_session=/);
      expect(await passkeyRow(t, stored.id)).toMatchObject({
        counter: 1,
        lastUsedAt: t.clock.now(),
      });
      expect(await auditSummaries(t, member.id, 'auth.login')).toContain(
        'success: Signed in as approver with their passkey “Phone”',
      );
    },
  );

  appTest(
    'an assertion is accepted once: replayed on its step or on a new one, it is refused',
    async ({ t }) => {
      const member = await approver(t);
      await register(member, 'Phone');
      const step = await passkeyStep(t, member);
      const assertion = member.authenticator.get(step.passkey, TEST_ORIGIN);
      expect((await signInWith(t, step, assertion)).status).toBe(200);

      const sameStep = await signInWith(t, step, assertion);
      expect(sameStep.status).toBe(401);
      expect(await errorOf(sameStep)).toMatchObject({ code: 'SECOND_FACTOR_STEP_EXPIRED' });
      expect(sameStep.headers.get('set-cookie')).toBeNull();

      // A new step has a challenge of its own: the old signature is over another.
      const newStep = await passkeyStep(t, member);
      const replayed = await signInWith(t, newStep, assertion);
      expect(replayed.status).toBe(401);
      expect(await errorOf(replayed)).toMatchObject({
        code: 'PASSKEY_INVALID',
        fields: [{ field: 'credential' }],
      });
      expect(replayed.headers.get('set-cookie')).toBeNull();
    },
  );

  appTest("another member's passkey does not sign in this member", async ({ t }) => {
    const ada = await approver(t);
    const ben = await approver(t);
    await register(ada, 'Ada key');
    const { stored: bensKey } = await register(ben, 'Ben key');
    const step = await passkeyStep(t, ada);
    // Ben's authenticator signs Ada's challenge with Ben's own, valid, key.
    const assertion = ben.authenticator.get(step.passkey, TEST_ORIGIN, {}, bensKey);
    const res = await signInWith(t, step, assertion);
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toMatchObject({ code: 'PASSKEY_INVALID' });
    const refusals = await auditSummaries(t, ada.id, 'auth.second_factor');
    expect(refusals.at(-1)).toMatch(
      /^failed: Passkey refused for .*: the key is not one of this member’s passkeys/,
    );
  });

  appTest('an assertion made for another origin or relying party is refused', async ({ t }) => {
    const member = await approver(t);
    await register(member, 'Phone');
    for (const tamper of [{ origin: 'https://evil.example' }, { rpId: 'evil.example' }]) {
      const step = await passkeyStep(t, member);
      const res = await signInWith(
        t,
        step,
        member.authenticator.get(step.passkey, TEST_ORIGIN, tamper),
      );
      expect(res.status).toBe(401);
      expect(await errorOf(res)).toMatchObject({ code: 'PASSKEY_INVALID' });
    }
  });

  appTest('a counter that did not grow is refused (a copied key)', async ({ t }) => {
    const member = await approver(t);
    const { stored } = await register(member, 'Security key');
    const first = await passkeyStep(t, member);
    const signedIn = await signInWith(
      t,
      first,
      member.authenticator.get(first.passkey, TEST_ORIGIN, { counter: 5 }),
    );
    expect(signedIn.status).toBe(200);
    for (const counter of [5, 4, 0]) {
      const step = await passkeyStep(t, member);
      const res = await signInWith(
        t,
        step,
        member.authenticator.get(step.passkey, TEST_ORIGIN, { counter }),
      );
      expect(res.status, `counter ${counter}`).toBe(401);
      expect(await errorOf(res)).toMatchObject({ code: 'PASSKEY_INVALID' });
    }
    expect((await passkeyRow(t, stored.id))?.counter).toBe(5);
  });

  appTest('a removed passkey no longer signs in; removing asks for the password', async ({ t }) => {
    const member = await approver(t);
    const { res: added, stored: removedKey } = await register(member, 'Old laptop');
    const { stored: keptKey } = await register(member, 'New laptop');
    const { id } = Passkey.parse(await added.json());
    // A step opened before the removal.
    const earlier = await passkeyStep(t, member);

    const wrong = await member.post(`${PASSKEYS}${id}/remove/`, { password: 'not my password' });
    expect(wrong.status).toBe(400);
    expect(await errorOf(wrong)).toMatchObject({ code: 'WRONG_PASSWORD' });
    const removed = await member.post(`${PASSKEYS}${id}/remove/`, { password: member.password });
    expect(removed.status, await removed.clone().text()).toBe(200);
    expect(Passkey.parse(await removed.json()).name).toBe('Old laptop');
    const listed = AccountPasskeys.parse(await (await member.get(PASSKEYS)).json());
    expect(listed.passkeys.map((p) => p.name)).toEqual(['New laptop']);
    expect(await auditSummaries(t, member.id, 'account.passkey.remove')).toEqual([
      'failed: Refused: the current password was not correct',
      'success: Removed their passkey “Old laptop”',
    ]);
    const gone = await member.post(`${PASSKEYS}${id}/remove/`, { password: member.password });
    expect(gone.status).toBe(404);

    const step = await passkeyStep(t, member);
    expect(step.passkey.allowCredentials?.map((c) => c.id)).toEqual([keptKey.id]);
    for (const open of [earlier, step]) {
      const res = await signInWith(
        t,
        open,
        member.authenticator.get(open.passkey, TEST_ORIGIN, {}, removedKey),
      );
      expect(res.status).toBe(401);
      expect(await errorOf(res)).toMatchObject({ code: 'PASSKEY_INVALID' });
    }
  });

  appTest('wrong passkeys count against the member like wrong codes', async ({ t }) => {
    const member = await approver(t);
    await register(member, 'Phone');
    for (let i = 0; i < FREE_MEMBER_FAILURES; i += 1) {
      const step = await passkeyStep(t, member);
      const res = await signInWith(
        t,
        step,
        member.authenticator.get(step.passkey, TEST_ORIGIN, { origin: 'https://evil.example' }),
      );
      expect(res.status).toBe(401);
    }
    const step = await passkeyStep(t, member);
    const waiting = await signInWith(t, step, member.authenticator.get(step.passkey, TEST_ORIGIN));
    expect(waiting.status).toBe(429);
    expect(await errorOf(waiting)).toMatchObject({ code: 'SECOND_FACTOR_RATE_LIMITED' });
  });

  appTest('the authenticator app still signs in a member who has passkeys', async ({ t }) => {
    const member = await makeMember(t, 'approver');
    const { secret, session, cookie } = await enrolAtSignIn(t, member);
    const authenticator = new SoftAuthenticator();
    const headers = {
      cookie,
      [CSRF_HEADER]: session.csrfToken,
      Origin: TEST_ORIGIN,
      'Content-Type': 'application/json',
    };
    const started = await t.anonymous(`${PASSKEYS}registration/`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ password: member.password }),
    });
    const { registrationId, options } = PasskeyRegistrationStarted.parse(await started.json());
    const { credential } = authenticator.create(options, TEST_ORIGIN);
    const added = await t.anonymous(PASSKEYS, {
      method: 'POST',
      headers,
      body: JSON.stringify({ registrationId, name: 'Phone', credential }),
    });
    expect(added.status).toBe(201);
    t.clock.advance(60_000);
    const step = await passkeyStep(t, member);
    const res = await codeStep(t, step.challengeId, totpCode(secret, t.clock.now()));
    expect(res.status, await res.clone().text()).toBe(200);
  });
});

describe('losing a passkey', () => {
  appTest('the reset of a lost factor removes every passkey too', async ({ t }) => {
    const member = await approver(t);
    const { stored } = await register(member, 'Lost phone');
    const outcome = await resetFactor(t.db, member.id, t.clock.now());
    expect(outcome).toMatchObject({ hadFactor: true, passkeysRemoved: 1 });
    expect(await passkeyRow(t, stored.id)).toBeUndefined();
    // The next sign-in sets up a new factor, and offers no passkey.
    const step = await passwordStep(t, member, nextIp());
    expect(step.secondFactor).toBe('enrol');
    expect(step.passkey).toBeUndefined();
  });
});
