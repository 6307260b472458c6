import { and, eq, like } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { auditLog, loginFailures } from '../db/schema/console.ts';
import { TEST_ORIGIN } from '../test/staff-session.ts';
import { appTestWith } from '../test/app-test.ts';
import type { TestApp } from '../test/test-app.ts';
import { REFUSAL_AUDIT_INTERVAL_MS } from './rate-limit.ts';
import { SignInBudget, signInBudget } from './sign-in-budget.ts';

/**
 * Pre-authentication work is bounded (sign-in-budget.ts): a burst of
 * anonymous sign-ins, each from an address of its own so the throttle lets
 * every one through, runs a fixed number of password checks at once, admits
 * a fixed number in all and refuses the rest at once with 503 SIGN_IN_BUSY.
 */

const appTest = appTestWith({ trustProxy: true });

function login(t: TestApp, email: string, ip: string): Promise<Response> {
  return Promise.resolve(
    t.anonymous('/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: TEST_ORIGIN, 'X-Forwarded-For': ip },
      body: JSON.stringify({ email, password: 'not the password' }),
    }),
  );
}

/** The first `count` of `answers` to arrive. */
function firstArrivals(answers: Promise<Response>[], count: number): Promise<Response[]> {
  return new Promise((resolve, reject) => {
    const arrived: Response[] = [];
    for (const answer of answers)
      answer.then((res) => {
        arrived.push(res);
        if (arrived.length === count) resolve(arrived);
      }, reject);
  });
}

/** Holds one place in the budget, and its check slot, until let go. */
function holdACheck() {
  const held = signInBudget.admit('the test itself');
  if (!held.admitted) throw new Error('the budget is full before the test');
  let letGo = () => {};
  const done = held.check(() => new Promise<void>((resolve) => (letGo = resolve)));
  return async () => {
    letGo();
    await done;
    held.leave();
  };
}

describe('sign-ins through the app', () => {
  appTest(
    'a burst of 300 runs at most the budget of checks at once, and every one is answered',
    async ({ t }) => {
      const answers = await Promise.all(
        Array.from({ length: 300 }, (_, i) =>
          login(t, `nobody-${i}@bank.test`, `198.18.${i >> 8}.${i & 255}`),
        ),
      );
      const statuses = answers.map((r) => r.status);
      for (const status of statuses) expect([401, 503]).toContain(status);
      expect(statuses.filter((s) => s === 401).length).toBeGreaterThanOrEqual(
        signInBudget.limits.inProgress,
      );
      expect(signInBudget.peak).toBe(signInBudget.limits.checksAtOnce);
    },
  );

  appTest(
    'past the budget, answers 503 SIGN_IN_BUSY with Retry-After at once; those admitted are checked after',
    async ({ t }) => {
      t.clock.advance(REFUSAL_AUDIT_INTERVAL_MS);
      const letGo = holdACheck();
      const room = signInBudget.limits.inProgress - 1;
      const beyond = 3;
      const answers = Array.from({ length: room + beyond }, (_, i) =>
        login(t, `someone-${i}@bank.test`, `198.18.9.${i}`),
      );

      const refused = await firstArrivals(answers, beyond);
      for (const res of refused) {
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('1');
        expect(await res.json()).toEqual({
          message: 'Too many sign-ins are being checked right now',
          code: 'SIGN_IN_BUSY',
        });
      }
      await letGo();
      const statuses = (await Promise.all(answers)).map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(room);

      // Only checked sign-ins count as failures; the refusals share one audit row.
      const failures = await t.db
        .select()
        .from(loginFailures)
        .where(like(loginFailures.ip, '198.18.9.%'));
      expect(failures).toHaveLength(room);
      const refusalRows = await t.db
        .select()
        .from(auditLog)
        .where(and(like(auditLog.ip, '198.18.9.%'), eq(auditLog.outcome, 'denied')));
      expect(refusalRows).toHaveLength(1);
      expect(refusalRows[0]?.summary).toMatch(
        /^Sign-in refused for someone-\d+@bank\.test: the server was busy checking other sign-ins/,
      );
    },
  );

  appTest(
    'one address gets at most its share in progress; more from it are 429 at once',
    async ({ t }) => {
      const letGo = holdACheck();
      const ip = '198.18.10.1';
      const share = signInBudget.limits.perAddress;
      const answers = Array.from({ length: share + 2 }, (_, i) =>
        login(t, `stuffed-${i}@bank.test`, ip),
      );
      const refused = await firstArrivals(answers, 2);
      for (const res of refused) {
        expect(res.status).toBe(429);
        expect(res.headers.get('retry-after')).toBe('1');
        expect(await res.json()).toEqual({
          message: 'Too many sign-ins at once from one address; try again in 1 second',
          code: 'LOGIN_RATE_LIMITED',
        });
      }
      // Another address still gets in.
      const other = login(t, 'someone-else@bank.test', '198.18.10.2');
      await letGo();
      expect((await other).status).toBe(401);
      expect((await Promise.all(answers)).filter((r) => r.status === 401)).toHaveLength(share);
    },
  );
});

describe('SignInBudget', () => {
  appTest(
    'checks one at a time in arrival order and refuses past its limits, in all and per address',
    async () => {
      const budget = new SignInBudget({ checksAtOnce: 1, inProgress: 3, perAddress: 2 });
      const order: string[] = [];
      const admit = (address: string) => {
        const admission = budget.admit(address);
        if (!admission.admitted) return admission.refusal;
        return admission;
      };
      const a = admit('x');
      const b = admit('x');
      expect(admit('x')).toBe('address');
      const c = admit('y');
      expect(admit('z')).toBe('busy');
      if (typeof a === 'string' || typeof b === 'string' || typeof c === 'string')
        throw new Error('expected three admissions');

      let finishA = () => {};
      const checks = [
        a.check(
          () => new Promise<void>((resolve) => (finishA = () => (order.push('a'), resolve()))),
        ),
        b.check(async () => void order.push('b')),
        c.check(async () => void order.push('c')),
      ];
      finishA();
      await Promise.all(checks);
      expect(order).toEqual(['a', 'b', 'c']);
      expect(budget.peak).toBe(1);
      // Leaving frees the places, once only.
      a.leave();
      a.leave();
      expect(admit('z')).not.toBe('busy');
      expect(admit('x')).toBe('busy');
    },
  );
});
