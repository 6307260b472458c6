import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { CSRF_HEADER, SESSION_COOKIE, SessionResponse } from '#contract/auth.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { TEST_ORIGIN } from '../test/staff-session.ts';
import { appFixture, appTestWith } from '../test/app-test.ts';
import type { TestApp } from '../test/test-app.ts';
import { loginFailures } from '../db/schema/console.ts';
import {
  FREE_FAILURES_PER_ACCOUNT_ADDRESS,
  FREE_FAILURES_PER_ADDRESS,
  LOGIN_WINDOW_MS,
  waitAfter,
} from './rate-limit.ts';
import { hashPassword } from './password.ts';
import { createStaff } from './staff.store.ts';

// Sign-in, sessions and CSRF through the real app. TRUST_PROXY is on so a
// test can speak from several addresses (X-Forwarded-For).
// The password step; the second factor after it has its own tests (second-factor.routes.test.ts).
// `upstream` is a console without demo accounts, as outside the sandbox.
const appTest = appTestWith({ trustProxy: true, secondFactor: 'optional' }).extend(
  'upstream',
  { scope: 'file' },
  appFixture({ demoAccounts: false }),
);

let n = 0;
async function member(t: TestApp, options: { role?: 'viewer' | 'admin'; disabled?: boolean } = {}) {
  n += 1;
  const email = `member-${n}@bank.test`;
  const password = `correct horse ${n} battery`;
  const row = await createStaff(
    t.db,
    {
      email,
      name: `Member ${n}`,
      role: options.role ?? 'viewer',
      password,
    },
    // A real sign-in checks whatever cost the hash carries; the production cost buys nothing here.
    { now: t.clock.now(), passwordHash: await hashPassword(password, { N: 1024, r: 8, p: 1 }) },
  );
  if (options.disabled)
    await t.admin.request(`/api/console/staff/${row.id}/`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ disabled: true }),
    });
  return { ...row, email, password };
}

function login(
  t: TestApp,
  email: string,
  password: string,
  ip = '198.51.100.1',
  origin = TEST_ORIGIN,
  extra: Record<string, unknown> = {},
) {
  return t.anonymous('/auth/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: origin, 'X-Forwarded-For': ip },
    body: JSON.stringify({ email, password, ...extra }),
  });
}

/** Failed sign-ins on record, as that many refused logins would have left them, made directly. */
async function recordFailures(t: TestApp, rows: Array<{ email: string; ip: string }>) {
  await t.db.insert(loginFailures).values(rows.map((r) => ({ ...r, at: t.clock.now() })));
}

async function failures(t: TestApp, email: string, ip: string): Promise<number> {
  const rows = await t.db
    .select()
    .from(loginFailures)
    .where(and(eq(loginFailures.email, email), eq(loginFailures.ip, ip)));
  return rows.length;
}

async function signedIn(t: TestApp, email: string, password: string) {
  const res = await login(t, email, password);
  expect(res.status).toBe(200);
  const session = SessionResponse.parse(await res.json());
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const as = (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('cookie', cookie);
    return t.anonymous(url, { ...init, headers });
  };
  return { session, cookie, as };
}

const post = (csrf: string | undefined, origin: string | null = TEST_ORIGIN) => {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (csrf !== undefined) headers[CSRF_HEADER] = csrf;
  if (origin !== null) headers['Origin'] = origin;
  return { method: 'POST', headers, body: '{}' };
};

describe('POST /auth/login', () => {
  appTest(
    'signs in with an HttpOnly, SameSite=Strict cookie and answers the session',
    async ({ t }) => {
      const m = await member(t);
      const res = await login(t, m.email.toUpperCase(), m.password);
      expect(res.status).toBe(200);
      const cookie = res.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{43};`));
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).not.toMatch(/Secure/);
      const body = SessionResponse.parse(await res.json());
      expect(body.member).toMatchObject({ email: m.email, role: 'viewer', subOrgIds: null });
      expect(body.csrfToken.length).toBeGreaterThan(30);
      expect(Date.parse(body.expiresAt) - t.clock.now().getTime()).toBe(8 * 3600_000);
      expect(Date.parse(body.idleExpiresAt) - t.clock.now().getTime()).toBe(30 * 60_000);
      // The answer carries the CSRF token: no cache may keep it.
      expect(res.headers.get('Cache-Control')).toBe('no-store');
    },
  );

  appTest(
    'gives the same 401 for an unknown email, a wrong password and a disabled member',
    async ({ t }) => {
      const m = await member(t);
      const disabled = await member(t, { disabled: true });
      const answers = [
        await login(t, 'nobody@bank.test', 'whatever password', '203.0.113.10'),
        await login(t, m.email, 'wrong password!!', '203.0.113.11'),
        await login(t, disabled.email, disabled.password, '203.0.113.12'),
      ];
      const bodies = await Promise.all(answers.map((r) => r.json()));
      expect(answers.map((r) => r.status)).toEqual([401, 401, 401]);
      expect(bodies[0]).toEqual({
        message: 'The email or password is not correct',
        code: 'UNAUTHORIZED',
      });
      expect(bodies[1]).toEqual(bodies[0]);
      expect(bodies[2]).toEqual(bodies[0]);
      for (const r of answers) expect(r.headers.get('set-cookie')).toBeNull();
    },
  );

  appTest('refuses a sign-in from a foreign Origin (login CSRF)', async ({ t }) => {
    const m = await member(t);
    const res = await login(t, m.email, m.password, '198.51.100.2', 'https://evil.example');
    expect(res.status).toBe(403);
    expect(ApiErrorBody.parse(await res.json()).code).toBe('CSRF_REJECTED');
  });

  appTest(
    "a stranger's failures slow the stranger, never the owner signing in from another address",
    async ({ t }) => {
      const m = await member(t);
      const stranger = '203.0.113.9';
      // Many more failures than any lock-out would allow, each as soon as the throttle lets it through.
      for (let i = 0; i < 12; i += 1) {
        const res = await login(t, m.email, `wrong password ${i}!`, stranger);
        expect(res.status).toBe(401);
        t.clock.advance(waitAfter(i + 1, FREE_FAILURES_PER_ACCOUNT_ADDRESS));
      }
      // The owner, from their own address, right away.
      expect((await login(t, m.email, m.password, '198.51.100.20')).status).toBe(200);
      // The stranger's own waits have grown and stay: the owner's success does not reset them.
      expect(await failures(t, m.email, stranger)).toBe(12);
    },
  );

  appTest(
    'waits grow 1 s, 2 s, 4 s… per account and address, the right password included, with the same answer for an unknown email',
    async ({ t }) => {
      const m = await member(t);
      const ip = '203.0.113.10';
      for (const email of [m.email, 'nobody-at-all@bank.test']) {
        for (let i = 0; i < FREE_FAILURES_PER_ACCOUNT_ADDRESS; i += 1) {
          expect((await login(t, email, 'wrong password!!', ip)).status).toBe(401);
        }
        // From the 4th failure on, each earns a wait twice the last.
        for (const waitMs of [1000, 2000, 4000]) {
          expect((await login(t, email, 'wrong password!!', ip)).status).toBe(401);
          const limited = await login(t, email, m.password, ip);
          expect(limited.status).toBe(429);
          expect(limited.headers.get('retry-after')).toBe(String(waitMs / 1000));
          expect(await limited.json()).toEqual({
            message: `Too many failed sign-in attempts; try again in ${waitMs / 1000} second${waitMs === 1000 ? '' : 's'}`,
            code: 'LOGIN_RATE_LIMITED',
          });
          t.clock.advance(waitMs - 1);
          expect((await login(t, email, m.password, ip)).status).toBe(429);
          t.clock.advance(1);
        }
      }
      // Once the wait is over the right password works, and clears that address's count.
      expect((await login(t, m.email, m.password, ip)).status).toBe(200);
      expect(await failures(t, m.email, ip)).toBe(0);
    },
  );

  appTest(
    'waits stop growing at 15 minutes, and failures older than an hour no longer count',
    async ({ t }) => {
      const m = await member(t);
      const ip = '203.0.113.11';
      // How failures earn their waits is the test above; twenty on record need no twenty sign-ins.
      await recordFailures(
        t,
        Array.from({ length: 20 }, () => ({ email: m.email, ip })),
      );
      expect(waitAfter(20, FREE_FAILURES_PER_ACCOUNT_ADDRESS)).toBe(15 * 60_000);
      const limited = await login(t, m.email, m.password, ip);
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe(String(15 * 60));
      t.clock.advance(LOGIN_WINDOW_MS);
      expect((await login(t, m.email, 'wrong password!!', ip)).status).toBe(401);
      expect((await login(t, m.email, m.password, ip)).status).toBe(200);
    },
  );

  appTest(
    'one address trying many accounts slows down after 20 failures, for every account from it, not from elsewhere',
    async ({ t }) => {
      const ip = '198.51.100.77';
      // As many failures as the address may have, each for another account; the next still gets through.
      await recordFailures(
        t,
        Array.from({ length: FREE_FAILURES_PER_ADDRESS }, (_, i) => ({
          email: `nobody-${i}@bank.test`,
          ip,
        })),
      );
      expect((await login(t, 'nobody-else@bank.test', 'wrong password!!', ip)).status).toBe(401);
      const m = await member(t);
      const limited = await login(t, m.email, m.password, ip);
      expect(limited.status).toBe(429);
      expect(ApiErrorBody.parse(await limited.json()).code).toBe('LOGIN_RATE_LIMITED');
      expect((await login(t, m.email, m.password, '198.51.100.78')).status).toBe(200);
      t.clock.advance(1000);
      expect((await login(t, m.email, m.password, ip)).status).toBe(200);
    },
  );

  appTest('answers a malformed body with 400 naming the field', async ({ t }) => {
    const res = await t.anonymous('/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: TEST_ORIGIN },
      body: JSON.stringify({ email: 'not-an-email', password: '' }),
    });
    expect(res.status).toBe(400);
    expect(ApiErrorBody.parse(await res.json()).fields?.map((f) => f.field)).toEqual([
      'email',
      'password',
    ]);
  });

  appTest(
    'reads its body through the one JSON reader: deep nesting and broken JSON are a 400, never a 500',
    async ({ t }) => {
      const send = (body: string) =>
        t.anonymous('/auth/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: TEST_ORIGIN },
          body,
        });
      const deep = await send(`{"email":${'['.repeat(3000)}${']'.repeat(3000)},"password":"x"}`);
      expect(deep.status).toBe(400);
      expect(ApiErrorBody.parse(await deep.json())).toMatchObject({
        code: 'VALIDATION_ERROR',
        fields: [{ field: 'body', message: 'body nests deeper than 64 levels' }],
      });

      const broken = await send('{"email": "a@bank.test", "password": ');
      expect(broken.status).toBe(400);
      expect(ApiErrorBody.parse(await broken.json()).code).toBe('INVALID_JSON');
    },
  );
});

describe('sessions', () => {
  appTest('answers GET /auth/session while live, 401 without a cookie', async ({ t }) => {
    const m = await member(t);
    const { as, session } = await signedIn(t, m.email, m.password);
    const res = await as('/auth/session');
    expect(res.status).toBe(200);
    expect(SessionResponse.parse(await res.json()).csrfToken).toBe(session.csrfToken);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const anonymous = await t.anonymous('/auth/session');
    expect(anonymous.status).toBe(401);
    // Nor may a cache remember "signed out" for a browser that then signs in.
    expect(anonymous.headers.get('Cache-Control')).toBe('no-store');
  });

  appTest('expires after 30 minutes idle, and activity keeps it alive', async ({ t }) => {
    const m = await member(t);
    const { as } = await signedIn(t, m.email, m.password);
    t.clock.advance(29 * 60_000);
    expect((await as(paths.assets())).status).toBe(200);
    t.clock.advance(29 * 60_000);
    expect((await as(paths.assets())).status).toBe(200);
    t.clock.advance(30 * 60_000);
    const res = await as(paths.assets());
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      message: 'Your session expired after 30 minutes without activity; sign in again',
      code: 'UNAUTHORIZED',
    });
  });

  appTest('expires 8 hours after sign-in however active', async ({ t }) => {
    const m = await member(t);
    const { as } = await signedIn(t, m.email, m.password);
    for (let minutes = 0; minutes < 8 * 60 - 20; minutes += 20) {
      t.clock.advance(20 * 60_000);
      expect((await as(paths.assets())).status, `after ${minutes + 20} min`).toBe(200);
    }
    t.clock.advance(20 * 60_000);
    const res = await as(paths.assets());
    expect(res.status).toBe(401);
    expect(ApiErrorBody.parse(await res.json()).message).toMatch(/8 hours/);
  });

  appTest('is revoked by sign-out, which needs the CSRF token', async ({ t }) => {
    const m = await member(t);
    const { as, session } = await signedIn(t, m.email, m.password);
    expect((await as('/auth/logout', post(undefined))).status).toBe(403);
    const out = await as('/auth/logout', post(session.csrfToken));
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(new RegExp(`${SESSION_COOKIE}=;`));
    expect((await as(paths.assets())).status).toBe(401);
    expect((await as('/auth/session')).status).toBe(401);
  });

  appTest('is revoked when an admin disables the member', async ({ t }) => {
    const m = await member(t);
    const { as } = await signedIn(t, m.email, m.password);
    expect((await as(paths.assets())).status).toBe(200);
    const disabled = await t.admin.request(`/api/console/staff/${m.id}/`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ disabled: true }),
    });
    expect(disabled.status).toBe(200);
    expect((await as(paths.assets())).status).toBe(401);
    // Enabling them again does not bring the old session back.
    await t.admin.request(`/api/console/staff/${m.id}/`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ disabled: false }),
    });
    expect((await as(paths.assets())).status).toBe(401);
  });
});

describe('CSRF on mutations by a session', () => {
  appTest(
    'refuses a missing token, a wrong token and a foreign or missing Origin with 403 CSRF_REJECTED',
    async ({ t }) => {
      const m = await member(t, { role: 'admin' });
      const { as, session } = await signedIn(t, m.email, m.password);
      const cases: Array<[string, RequestInit]> = [
        ['missing token', post(undefined)],
        ['wrong token', post('x'.repeat(session.csrfToken.length))],
        ['foreign Origin', post(session.csrfToken, 'https://evil.example')],
        ['no Origin', post(session.csrfToken, null)],
      ];
      for (const [name, init] of cases) {
        for (const url of [paths.bankAccounts(), '/api/console/staff/']) {
          const res = await as(url, init);
          expect(res.status, `${name} ${url}`).toBe(403);
          expect(ApiErrorBody.parse(await res.json()).code, name).toBe('CSRF_REJECTED');
        }
      }
      // With both, the request reaches the route (and fails its validation instead).
      const ok = await as('/api/console/staff/', post(session.csrfToken));
      expect(ok.status).toBe(400);
    },
  );

  appTest(
    'answers anonymous API calls with 401 UNAUTHORIZED, reads and writes alike',
    async ({ t }) => {
      for (const [url, init] of [
        [paths.transactions(), {}],
        [paths.bankAccounts(), { method: 'POST', body: '{}' }],
        ['/api/console/audit/', {}],
      ] as const) {
        const res = await t.anonymous(url, init);
        expect(res.status, url).toBe(401);
        expect(ApiErrorBody.parse(await res.json()).code).toBe('UNAUTHORIZED');
      }
      expect((await t.anonymous('/healthz')).status).toBe(200);
    },
  );
});

describe('headers', () => {
  appTest(
    'sends a CSP without inline script, frame-ancestors none, nosniff and same-origin referrers',
    async ({ t }) => {
      const res = await t.anonymous('/healthz');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(csp).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
      expect(res.headers.get('strict-transport-security')).toBeNull();
    },
  );
});

describe('GET /auth/demo-accounts', () => {
  appTest(
    'lists one demo member per role in sandbox mode, and is 404 otherwise',
    async ({ t, upstream }) => {
      const res = await t.anonymous('/auth/demo-accounts');
      expect(res.status).toBe(200);
      const body = (await res.json()) as { results: Array<{ role: string; password: string }> };
      expect(body.results.map((r) => r.role)).toEqual(['viewer', 'initiator', 'approver', 'admin']);
      for (const r of body.results) expect(r.password.length).toBeGreaterThanOrEqual(12);
      expect((await upstream.anonymous('/auth/demo-accounts')).status).toBe(404);
    },
  );
});

describe("the browser's time zone at sign-in", () => {
  appTest(
    'is kept on the session as the default, and the session answer says where the zone came from',
    async ({ t }) => {
      const m = await member(t);
      const res = await login(t, m.email, m.password, '198.51.100.91', TEST_ORIGIN, {
        timeZone: 'America/Los_Angeles',
      });
      expect(res.status).toBe(200);
      const first = SessionResponse.parse(await res.json());
      expect(first.display).toEqual({
        timeZone: 'America/Los_Angeles',
        timeZoneSource: 'browser',
        chosenTimeZone: null,
        browserTimeZone: 'America/Los_Angeles',
        colorScheme: 'system',
      });
      const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const again = await t.anonymous('/auth/session', { headers: { cookie } });
      expect(SessionResponse.parse(await again.json()).display).toEqual(first.display);
    },
  );

  appTest(
    'is UTC, said so, when the browser named none or one the server does not know; the sign-in still succeeds',
    async ({ t }) => {
      const m = await member(t);
      for (const extra of [{}, { timeZone: 'Atlantis/Lost_City' }, { timeZone: '' }]) {
        const res = await login(t, m.email, m.password, '198.51.100.92', TEST_ORIGIN, extra);
        expect(res.status, JSON.stringify(extra)).toBe(200);
        expect(SessionResponse.parse(await res.json()).display).toMatchObject({
          timeZone: 'UTC',
          timeZoneSource: 'fallback',
          browserTimeZone: null,
        });
      }
    },
  );

  appTest('refuses a zone that is not a short string, naming the field', async ({ t }) => {
    const m = await member(t);
    for (const timeZone of ['x'.repeat(65), 7]) {
      const res = await login(t, m.email, m.password, '198.51.100.93', TEST_ORIGIN, { timeZone });
      expect(res.status).toBe(400);
      const error = ApiErrorBody.parse(await res.json());
      expect(error.fields?.[0]?.field).toBe('timeZone');
    }
  });
});
