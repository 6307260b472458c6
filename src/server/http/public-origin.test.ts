import { describe, expect } from 'vitest';
import { CSRF_HEADER, HOST_SESSION_COOKIE } from '#contract/auth.ts';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { createStaff } from '../auth/staff.store.ts';
import { appTestWith } from '../test/app-test.ts';
import type { TestApp } from '../test/test-app.ts';
import { defaultPublicUrl, originPolicy } from './public-origin.ts';

// The console answers only as its public origin (PUBLIC_URL), behind a proxy
// that forwards the Host it was asked for: a DNS-rebinding page, whose name
// resolves to the console, sends its own name as Host and Origin both.
const PUBLIC = 'https://console.bank.test';
const member = { email: 'origin@bank.test', password: 'correct horse origin battery' };
const appTest = appTestWith({ trustProxy: true, publicUrl: PUBLIC }, (t) =>
  createStaff(t.db, { ...member, name: 'Origin', role: 'initiator' }, { now: t.clock.now() }),
);

const via = (host: string, origin?: string) => ({
  'Content-Type': 'application/json',
  'X-Forwarded-Proto': 'https',
  'X-Forwarded-Host': host,
  ...(origin ? { Origin: origin } : {}),
});

async function signIn(t: TestApp, host = 'console.bank.test', origin = PUBLIC) {
  const res = await t.anonymous('/auth/login', {
    method: 'POST',
    headers: via(host, origin),
    body: JSON.stringify(member),
  });
  const body = (await res.json()) as { csrfToken?: string };
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { res, body, cookie };
}

describe('PUBLIC_URL: the only Host answered, the only Origin of a mutation', () => {
  appTest(
    'signs in as the public origin behind an HTTPS proxy: Secure cookie and HSTS',
    async ({ t }) => {
      const { res, cookie } = await signIn(t);
      expect(res.status).toBe(200);
      expect(cookie.startsWith(`${HOST_SESSION_COOKIE}=`)).toBe(true);
      expect(res.headers.get('set-cookie')).toMatch(/Secure/);
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    },
  );

  appTest(
    'a DNS-rebinding page (its own name as Host and Origin, a real token) is refused: 421 UNKNOWN_HOST',
    async ({ t }) => {
      const { body, cookie } = await signIn(t);
      const evil = 'rebind.evil.example';
      const res = await t.anonymous(paths.transactions(), {
        method: 'POST',
        headers: { ...via(evil, `https://${evil}`), cookie, [CSRF_HEADER]: body.csrfToken ?? '' },
        body: JSON.stringify({ category: 'TRANSFER' }),
      });
      expect(res.status).toBe(421);
      const refusal = ApiErrorBody.parse(await res.json());
      expect(refusal.code).toBe('UNKNOWN_HOST');
      expect(refusal.message).toContain(PUBLIC);
      // Reads, sign-in and the SPA alike.
      for (const [url, init] of [
        [paths.transactions(), { headers: { ...via(evil), cookie } }],
        ['/auth/login', { method: 'POST', headers: via(evil, `https://${evil}`), body: '{}' }],
        ['/transactions', { headers: via(evil) }],
      ] as const) {
        expect((await t.anonymous(url, init)).status, url).toBe(421);
      }
      // A load balancer's health probe still gets its answer.
      expect((await t.anonymous('/healthz', { headers: via(evil) })).status).toBe(200);
    },
  );

  appTest(
    'the public Host with a foreign Origin is a CSRF refusal, with or without a token',
    async ({ t }) => {
      const { body, cookie } = await signIn(t);
      for (const origin of ['https://evil.example', 'http://console.bank.test']) {
        const res = await t.anonymous(paths.transactions(), {
          method: 'POST',
          headers: {
            ...via('console.bank.test', origin),
            cookie,
            [CSRF_HEADER]: body.csrfToken ?? '',
          },
          body: JSON.stringify({ category: 'TRANSFER' }),
        });
        expect(res.status, origin).toBe(403);
        expect(ApiErrorBody.parse(await res.json()).code).toBe('CSRF_REJECTED');
      }
      expect((await signIn(t, 'console.bank.test', 'https://evil.example')).res.status).toBe(403);
    },
  );
});

describe('originPolicy', () => {
  appTest(
    'loopback names stand for each other; a loopback listener also answers for its own port',
    () => {
      // npm run dev: Vite on 5173 proxies to the server on 8080.
      const dev = originPolicy('http://127.0.0.1:5173', { host: '127.0.0.1', port: 8080 });
      for (const host of ['127.0.0.1:5173', 'localhost:5173', '[::1]:5173', 'localhost:8080'])
        expect(dev.hosts.has(host), host).toBe(true);
      expect(dev.origins.has('http://localhost:5173')).toBe(true);
      for (const host of ['127.0.0.1:9999', 'evil.example:5173', '127.0.0.1.evil.example:5173'])
        expect(dev.hosts.has(host), host).toBe(false);

      const prod = originPolicy('https://console.bank.test', { host: '0.0.0.0', port: 8080 });
      expect([...prod.hosts]).toEqual(['console.bank.test']);
      expect([...prod.origins]).toEqual(['https://console.bank.test']);
    },
  );

  appTest('PUBLIC_URL unset: the listen address, localhost for a wildcard one', () => {
    expect(defaultPublicUrl('127.0.0.1', 8080)).toBe('http://127.0.0.1:8080');
    expect(defaultPublicUrl('0.0.0.0', 8080)).toBe('http://localhost:8080');
    expect(defaultPublicUrl('::1', 3000)).toBe('http://[::1]:3000');
  });
});
