import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../db/schema/console.ts';
import { TEST_ORIGIN } from '../test/staff-session.ts';
import { createTestApp, type TestApp } from '../test/test-app.ts';
import { FREE_FAILURES_PER_ACCOUNT_ADDRESS, FREE_FAILURES_PER_ADDRESS } from './rate-limit.ts';
import { createStaff } from './staff.store.ts';

/**
 * The client address behind trusted proxies (csrf.ts, clientIp): each proxy
 * appends the address it was reached from to X-Forwarded-For, after what the
 * client wrote, so only the right-most TRUST_PROXY entries are believed.
 * Here the test speaks as the proxies, appending the address they saw.
 */

let one: TestApp;
let two: TestApp;
beforeAll(async () => {
  one = await createTestApp({ trustProxy: true });
  two = await createTestApp({ trustProxy: 2 });
});
afterAll(async () => {
  await one.close();
  await two.close();
});

let n = 0;
async function member(t: TestApp) {
  n += 1;
  const email = `proxied-${n}@bank.test`;
  const password = `correct horse proxied ${n}`;
  await createStaff(
    t.db,
    { email, name: `Proxied ${n}`, role: 'viewer', password },
    { now: t.clock.now() },
  );
  return { email, password };
}

function login(t: TestApp, email: string, password: string, forwardedFor: string) {
  return t.anonymous('/auth/login', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Origin: TEST_ORIGIN,
      'X-Forwarded-For': forwardedFor,
    },
    body: JSON.stringify({ email, password }),
  });
}

describe('TRUST_PROXY=true (one proxy): the right-most X-Forwarded-For entry', () => {
  it('a guesser writing a new address each time is throttled by the address the proxy saw', async () => {
    const m = await member(one);
    const attacker = '203.0.113.66';
    const statuses: number[] = [];
    for (let i = 0; i <= FREE_FAILURES_PER_ACCOUNT_ADDRESS + 2; i += 1)
      statuses.push(
        (await login(one, m.email, 'wrong guess!!', `10.9.8.${i}, ${attacker}`)).status,
      );
    expect(statuses.slice(FREE_FAILURES_PER_ACCOUNT_ADDRESS + 1)).toEqual([429, 429]);
    const rows = await one.db
      .select({ ip: auditLog.ip })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'auth.login'), eq(auditLog.actorName, m.email)));
    expect(new Set(rows.map((r) => r.ip))).toEqual(new Set([attacker]));
  });

  it("a burst naming the victim's address slows the attacker, never the victim", async () => {
    const m = await member(one);
    const victim = '198.51.100.7';
    const attacker = '203.0.113.67';
    for (let i = 0; i <= FREE_FAILURES_PER_ADDRESS + 5; i += 1)
      await login(one, m.email, 'wrong guess!!', `${victim}, ${attacker}`);
    expect((await login(one, m.email, m.password, `${victim}, ${attacker}`)).status).toBe(429);
    expect((await login(one, m.email, m.password, victim)).status).toBe(200);
  });
});

describe('TRUST_PROXY=2 (two proxies): the second entry from the right', () => {
  it('believes the address the outer proxy saw, not what the client wrote nor the inner proxy', async () => {
    const m = await member(two);
    const client = '203.0.113.68';
    const outer = '10.0.0.2';
    const statuses: number[] = [];
    for (let i = 0; i <= FREE_FAILURES_PER_ACCOUNT_ADDRESS + 2; i += 1)
      statuses.push(
        (await login(two, m.email, 'wrong guess!!', `192.0.2.${i}, ${client}, ${outer}`)).status,
      );
    expect(statuses.slice(FREE_FAILURES_PER_ACCOUNT_ADDRESS + 1)).toEqual([429, 429]);
    // Another client behind the same proxies is not slowed.
    expect((await login(two, m.email, m.password, `203.0.113.69, ${outer}`)).status).toBe(200);
  });

  it('takes the left-most entry when fewer proxies appended than were declared', async () => {
    const m = await member(two);
    const only = '203.0.113.70';
    for (let i = 0; i <= FREE_FAILURES_PER_ACCOUNT_ADDRESS; i += 1)
      expect((await login(two, m.email, 'wrong guess!!', only)).status).toBe(401);
    expect((await login(two, m.email, m.password, ` ${only} `)).status).toBe(429);
  });
});
