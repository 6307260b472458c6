import { describe, expect } from 'vitest';
import { CSRF_HEADER, HOST_SESSION_COOKIE, SESSION_COOKIE } from '#contract/auth.ts';
import { paths } from '#contract/paths.ts';
import { appTestWith } from '../test/app-test.ts';
import type { TestApp } from '../test/test-app.ts';
import { createStaff } from './staff.store.ts';

/**
 * The session cookie's name follows the scheme (session-cookie.ts): behind
 * an HTTPS proxy `__Host-cc_session` (Secure, Path=/, no Domain, so no
 * sibling subdomain can plant one), over plain HTTP `cc_session`.
 */

const PUBLIC = 'https://console.bank.test';
const member = { email: 'cookie@bank.test', password: 'correct horse cookie battery' };
const withMember = (t: TestApp) =>
  createStaff(t.db, { ...member, name: 'Cookie', role: 'viewer' }, { now: t.clock.now() });
const appTest = appTestWith({ trustProxy: true, publicUrl: PUBLIC }, withMember);
/** The same console at a plain-HTTP public URL. */
const plainHttpTest = appTestWith(
  { trustProxy: true, publicUrl: 'http://console.bank.test' },
  withMember,
);

const overHttps = {
  'X-Forwarded-Proto': 'https',
  'X-Forwarded-Host': 'console.bank.test',
  Origin: PUBLIC,
};

async function signIn(t: TestApp, headers: Record<string, string>) {
  const res = await t.anonymous('/auth/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(member),
  });
  expect(res.status).toBe(200);
  const setCookie = res.headers.get('set-cookie') ?? '';
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  return { setCookie, token: /=([^;]*);/.exec(setCookie)?.[1] ?? '', csrfToken };
}

describe('the session cookie', () => {
  appTest(
    'over HTTPS is __Host-cc_session: Secure, Path=/, no Domain, and it is the one read',
    async ({ t }) => {
      const { setCookie, token, csrfToken } = await signIn(t, overHttps);
      expect(setCookie).toMatch(new RegExp(`^${HOST_SESSION_COOKIE}=[A-Za-z0-9_-]{43};`));
      expect(setCookie).toMatch(/; Path=\/;/);
      expect(setCookie).toMatch(/; Secure/);
      expect(setCookie).toMatch(/; HttpOnly/);
      expect(setCookie).not.toMatch(/Domain/i);
      const cookie = `${HOST_SESSION_COOKIE}=${token}`;
      expect(
        (await t.anonymous('/auth/session', { headers: { ...overHttps, cookie } })).status,
      ).toBe(200);
      expect(
        (await t.anonymous(paths.assets(), { headers: { ...overHttps, cookie } })).status,
      ).toBe(200);

      // Sign-out clears that name.
      const out = await t.anonymous('/auth/logout', {
        method: 'POST',
        headers: { ...overHttps, cookie, [CSRF_HEADER]: csrfToken },
      });
      expect(out.status).toBe(204);
      expect(out.headers.get('set-cookie')).toMatch(new RegExp(`^${HOST_SESSION_COOKIE}=;`));
    },
  );

  appTest(
    'over HTTPS ignores a plain cc_session, which a sibling subdomain could have planted',
    async ({ t }) => {
      const { token } = await signIn(t, overHttps);
      const planted = `${SESSION_COOKIE}=${token}`;
      const res = await t.anonymous('/auth/session', {
        headers: { ...overHttps, cookie: planted },
      });
      expect(res.status).toBe(401);
      expect(
        (await t.anonymous(paths.assets(), { headers: { ...overHttps, cookie: planted } })).status,
      ).toBe(401);
    },
  );

  plainHttpTest(
    'over plain HTTP is cc_session, without Secure, and a __Host- one is not read',
    async ({ t: plain }) => {
      const overHttp = {
        'X-Forwarded-Host': 'console.bank.test',
        Origin: 'http://console.bank.test',
      };
      const res = await plain.anonymous('/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...overHttp },
        body: JSON.stringify(member),
      });
      const setCookie = res.headers.get('set-cookie') ?? '';
      expect(setCookie).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
      expect(setCookie).not.toMatch(/Secure/);
      const token = /=([^;]*);/.exec(setCookie)?.[1] ?? '';
      const read = (cookie: string) =>
        plain.anonymous('/auth/session', { headers: { ...overHttp, cookie } });
      expect((await read(`${SESSION_COOKIE}=${token}`)).status).toBe(200);
      expect((await read(`${HOST_SESSION_COOKIE}=${token}`)).status).toBe(401);
    },
  );
});
