import { inArray } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { SecondFactorChallenge, SecondFactorSessionResponse } from '#contract/auth.ts';
import { totpCode } from '../auth/second-factor.ts';
import { openDatabase } from '../db/client.ts';
import { auditLog } from '../db/schema/console.ts';
import { cliTest } from '../test/cli-test.ts';

// `staff reset-factor` and `staff reset-password` on a real server's
// database, between runs of that server (PGlite lets one process at a time
// open it), through the CLI fixture (test/cli-test.ts).

function post(url: string, path: string, body: unknown, cookie?: string) {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Origin: url,
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify(body),
  });
}

async function passwordStep(url: string, email: string, password: string) {
  const res = await post(url, '/auth/login', { email, password });
  expect(res.status).toBe(200);
  return SecondFactorChallenge.parse(await res.json());
}

const EMAIL = 'reset@bank.test';
const PASSWORD = 'the first passphrase';

describe('npm run cli -- staff reset-factor / reset-password', () => {
  cliTest(
    'a reset factor is set up again at the next sign-in; a reset password replaces the old; both end sessions, audited',
    async ({ cli }) => {
      const created = await cli.run(
        ['staff', 'create', '--email', EMAIL, '--name', 'Reset Me', '--role', 'approver'],
        PASSWORD,
      );
      expect(created.code, created.stderr).toBe(0);

      // Signs in for the first time, setting up a factor.
      const cookie = await cli.withServer(async (url) => {
        const step = await passwordStep(url, EMAIL, PASSWORD);
        expect(step.secondFactor).toBe('enrol');
        const res = await post(url, '/auth/login/second-factor', {
          challengeId: step.challengeId,
          code: totpCode(step.enrolment?.secret ?? '', new Date()),
        });
        expect(res.status).toBe(200);
        expect(SecondFactorSessionResponse.parse(await res.json()).recoveryCodes).toHaveLength(10);
        expect((await passwordStep(url, EMAIL, PASSWORD)).secondFactor).toBe('required');
        return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      });

      const reset = await cli.run(['staff', 'reset-factor', '--email', 'Reset@Bank.test']);
      expect(reset.code, reset.stderr).toBe(0);
      expect(JSON.parse(reset.stdout)).toEqual({ email: EMAIL, hadFactor: true, sessionsEnded: 1 });
      expect(reset.stderr).toContain('They set up a new one at their next sign-in');

      await cli.withServer(async (url) => {
        const session = await fetch(`${url}/auth/session`, { headers: { cookie } });
        expect(session.status).toBe(401);
        expect((await passwordStep(url, EMAIL, PASSWORD)).secondFactor).toBe('enrol');
      });

      const short = await cli.run(['staff', 'reset-password', '--email', EMAIL], 'too short\n');
      expect(short.code).toBe(1);
      expect(short.stderr).toMatch(/password must be at least 12 characters/);
      const unknown = await cli.run(
        ['staff', 'reset-password', '--email', 'nobody@bank.test'],
        'long enough passphrase',
      );
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/No staff member with email nobody@bank.test/);
      const badEmail = await cli.run(['staff', 'reset-factor', '--email', 'nope']);
      expect(badEmail.code).toBe(2);

      const newPassword = 'the second passphrase';
      const password = await cli.run(
        ['staff', 'reset-password', '--email', EMAIL],
        `${newPassword}\n`,
      );
      expect(password.code, password.stderr).toBe(0);
      expect(JSON.parse(password.stdout)).toEqual({ email: EMAIL, sessionsEnded: 0 });
      expect(password.stdout + password.stderr).not.toContain(newPassword);

      await cli.withServer(async (url) => {
        expect((await post(url, '/auth/login', { email: EMAIL, password: PASSWORD })).status).toBe(
          401,
        );
        expect((await passwordStep(url, EMAIL, newPassword)).secondFactor).toBe('enrol');
      });

      const database = await openDatabase({
        dataDir: cli.storage.dataDir,
        databaseUrl: cli.storage.databaseUrl,
      });
      try {
        const rows = await database.db
          .select()
          .from(auditLog)
          .where(inArray(auditLog.action, ['staff.reset_factor', 'staff.reset_password']));
        expect(rows.map((r) => [r.action, r.actorType, r.outcome])).toEqual([
          ['staff.reset_factor', 'CLI', 'success'],
          ['staff.reset_password', 'CLI', 'success'],
        ]);
      } finally {
        await database.close();
      }
    },
    // Three console servers start and stop on one database, with scrypt at sign-in each time:
    // minutes on a loaded machine, where the default 60 s cut it off.
    180_000,
  );

  cliTest(
    'says so when the member had no factor, and refuses an unknown member',
    async ({ cli }) => {
      const created = await cli.run(
        ['staff', 'create', '--email', 'viewer-reset@bank.test', '--name', 'V', '--role', 'viewer'],
        PASSWORD,
      );
      expect(created.code, created.stderr).toBe(0);
      const reset = await cli.run(['staff', 'reset-factor', '--email', 'viewer-reset@bank.test']);
      expect(reset.code).toBe(0);
      expect(JSON.parse(reset.stdout)).toEqual({
        email: 'viewer-reset@bank.test',
        hadFactor: false,
        sessionsEnded: 0,
      });
      expect(reset.stderr).toContain('had no second factor');
      const unknown = await cli.run(['staff', 'reset-factor', '--email', 'nobody@bank.test']);
      expect(unknown.code).toBe(1);
    },
  );
});
