import { and, eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { auditLog } from '../db/schema/console.ts';
import { TEST_ORIGIN } from '../test/staff-session.ts';
import { appTestWith } from '../test/app-test.ts';
import { makeMember } from '../test/second-factor-sign-in.ts';
import type { TestApp } from '../test/test-app.ts';
import { FREE_FAILURES_PER_ACCOUNT_ADDRESS, FREE_FAILURES_PER_ADDRESS } from './rate-limit.ts';

/**
 * The client address behind trusted proxies (csrf.ts, clientIp): each proxy
 * appends the address it was reached from to X-Forwarded-For, after what the
 * client wrote, so only the right-most TRUST_PROXY entries are believed.
 * Here the test speaks as the proxies, appending the address they saw.
 */

const oneProxyTest = appTestWith({ trustProxy: true });
const twoProxiesTest = appTestWith({ trustProxy: 2 });

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
  oneProxyTest(
    'a guesser writing a new address each time is throttled by the address the proxy saw',
    async ({ t: one }) => {
      const m = await makeMember(one, 'viewer');
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
    },
  );

  oneProxyTest(
    "a burst naming the victim's address slows the attacker, never the victim",
    async ({ t: one }) => {
      const m = await makeMember(one, 'viewer');
      const victim = '198.51.100.7';
      const attacker = '203.0.113.67';
      for (let i = 0; i <= FREE_FAILURES_PER_ADDRESS + 5; i += 1)
        await login(one, m.email, 'wrong guess!!', `${victim}, ${attacker}`);
      expect((await login(one, m.email, m.password, `${victim}, ${attacker}`)).status).toBe(429);
      expect((await login(one, m.email, m.password, victim)).status).toBe(200);
    },
  );
});

describe('TRUST_PROXY=2 (two proxies): the second entry from the right', () => {
  twoProxiesTest(
    'believes the address the outer proxy saw, not what the client wrote nor the inner proxy',
    async ({ t: two }) => {
      const m = await makeMember(two, 'viewer');
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
    },
  );

  twoProxiesTest(
    'takes the left-most entry when fewer proxies appended than were declared',
    async ({ t: two }) => {
      const m = await makeMember(two, 'viewer');
      const only = '203.0.113.70';
      for (let i = 0; i <= FREE_FAILURES_PER_ACCOUNT_ADDRESS; i += 1)
        expect((await login(two, m.email, 'wrong guess!!', only)).status).toBe(401);
      expect((await login(two, m.email, m.password, ` ${only} `)).status).toBe(429);
    },
  );
});
