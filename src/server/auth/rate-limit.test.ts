import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import type { App } from '../app.ts';
import { auditLog, loginFailures } from '../db/schema/console.ts';
import { TEST_ORIGIN } from '../test/staff-session.ts';
import { appTestWith } from '../test/app-test.ts';
import { makeMember } from '../test/second-factor-sign-in.ts';
import { secondServer } from '../test/second-server.ts';
import type { TestApp } from '../test/test-app.ts';
import { FREE_FAILURES_PER_ACCOUNT_ADDRESS, REFUSAL_AUDIT_INTERVAL_MS } from './rate-limit.ts';

/**
 * The throttle decides and records in one step (rate-limit.ts,
 * reserveLoginAttempt): a burst of guesses sent at once from one address is
 * checked at most the throttle's allowance, on one server or on two sharing
 * the database (two pools of their own on PostgreSQL), and refusals do not
 * each leave an audit row.
 */

/** `b`: a second server on the same database. */
const appTest = appTestWith({ trustProxy: true }).extend(
  'b',
  { scope: 'file' },
  async ({ t }, { onCleanup }) => {
    const server = secondServer(t, { trustProxy: true });
    onCleanup(() => server.close());
    return server.app;
  },
);

/** Checked attempts: the allowance before the first wait. */
const ALLOWANCE = FREE_FAILURES_PER_ACCOUNT_ADDRESS + 1;

function login(
  server: Pick<App, 'request'>,
  email: string,
  password: string,
  ip: string,
): Promise<Response> {
  return Promise.resolve(
    server.request('/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: TEST_ORIGIN, 'X-Forwarded-For': ip },
      body: JSON.stringify({ email, password }),
    }),
  );
}

/** Resolves with the first answer of `status` among `answers`. */
function firstWith(answers: Promise<Response>[], status: number): Promise<Response> {
  return new Promise((resolve, reject) => {
    for (const answer of answers)
      answer.then((res) => res.status === status && resolve(res), reject);
    void Promise.all(answers).then(() => reject(new Error(`no ${status} among the answers`)));
  });
}

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((all, s) => ({ ...all, [s]: (all[s] ?? 0) + 1 }), {});

/**
 * 39 wrong guesses at once from one address, spread over `servers`; the
 * right password is sent once the first refusal is back (the allowance is
 * spent by then, the wrong guesses still in flight).
 */
async function burst(t: TestApp, servers: Array<Pick<App, 'request'>>, ip: string) {
  const m = await makeMember(t, 'viewer');
  const guesses = Array.from({ length: 39 }, (_, i) =>
    login(servers[i % servers.length] ?? t.app, m.email, `wrong guess ${i}!`, ip),
  );
  await firstWith(guesses, 429);
  const right = await login(servers[0] ?? t.app, m.email, m.password, ip);
  const statuses = (await Promise.all(guesses)).map((r) => r.status);
  return { m, right, statuses };
}

describe('a burst of guesses from one address', () => {
  appTest(
    'is checked at most the allowance, and the right password inside it is refused',
    async ({ t }) => {
      const ip = '203.0.113.40';
      const { m, right, statuses } = await burst(t, [t.app], ip);
      expect(tally(statuses)).toEqual({ 401: ALLOWANCE, 429: 39 - ALLOWANCE });
      expect(right.status).toBe(429);
      expect(right.headers.get('retry-after')).toBe('1');
      expect(await right.json()).toMatchObject({ code: 'LOGIN_RATE_LIMITED' });
      // Each checked guess is on record as a failure; no refusal is.
      const rows = await t.db
        .select()
        .from(loginFailures)
        .where(and(eq(loginFailures.email, m.email), eq(loginFailures.ip, ip)));
      expect(rows).toHaveLength(ALLOWANCE);
      // The owner, from their own address, is not kept out.
      expect((await login(t.app, m.email, m.password, '198.51.100.41')).status).toBe(200);
    },
  );

  appTest(
    'is checked at most the allowance across two servers sharing the database',
    async ({ t, b }) => {
      const { right, statuses } = await burst(t, [t.app, b], '203.0.113.42');
      expect(tally(statuses)).toEqual({ 401: ALLOWANCE, 429: 39 - ALLOWANCE });
      expect(right.status).toBe(429);
    },
  );
});

describe('refused sign-ins in the audit log', () => {
  const rowsFrom = (t: TestApp, ip: string) =>
    t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.ip, ip), eq(auditLog.action, 'auth.login')))
      .orderBy(auditLog.id);

  appTest(
    'write one row per address a minute, which counts the refusals since the last',
    async ({ t }) => {
      const m = await makeMember(t, 'viewer');
      const ip = '203.0.113.50';
      // A 15-minute wait for this address.
      await t.db
        .insert(loginFailures)
        .values(Array.from({ length: 30 }, () => ({ email: m.email, ip, at: t.clock.now() })));
      const first = t.clock.now();
      const refused = async (count: number) => {
        const answers = await Promise.all(
          Array.from({ length: count }, (_, i) => login(t.app, `chosen-${i}@evil.test`, 'x', ip)),
        );
        expect(answers.map((r) => r.status)).toEqual(Array(count).fill(429));
      };
      await refused(1);
      await refused(29);
      expect(await rowsFrom(t, ip)).toMatchObject([
        {
          outcome: 'denied',
          summary: 'Sign-in refused for chosen-0@evil.test: too many failed sign-in attempts',
        },
      ]);
      t.clock.advance(REFUSAL_AUDIT_INTERVAL_MS - 1);
      await refused(10);
      expect(await rowsFrom(t, ip)).toHaveLength(1);
      t.clock.advance(1);
      await refused(1);
      const rows = await rowsFrom(t, ip);
      expect(rows).toHaveLength(2);
      expect(rows[1]).toMatchObject({
        outcome: 'denied',
        actorType: 'ANONYMOUS',
        actorName: 'chosen-0@evil.test',
        summary: `Sign-in refused for chosen-0@evil.test: too many failed sign-in attempts; 39 more refused since ${first.toISOString()} have no row of their own`,
      });
    },
  );

  appTest('still write one row for each checked failure', async ({ t }) => {
    const m = await makeMember(t, 'viewer');
    const ip = '203.0.113.51';
    for (let i = 0; i < ALLOWANCE; i += 1)
      expect((await login(t.app, m.email, `wrong guess ${i}!`, ip)).status).toBe(401);
    expect((await login(t.app, m.email, m.password, ip)).status).toBe(429);
    const rows = await rowsFrom(t, ip);
    expect(rows.map((r) => r.outcome)).toEqual([...Array(ALLOWANCE).fill('failed'), 'denied']);
  });
});
