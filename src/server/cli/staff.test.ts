import { eq } from 'drizzle-orm';
import { describe, expect } from 'vitest';
import { SecondFactorChallenge } from '#contract/auth.ts';
import { openDatabase } from '../db/client.ts';
import { auditLog } from '../db/schema/console.ts';
import { cliTest } from '../test/cli-test.ts';

describe('npm run cli -- staff create', () => {
  cliTest(
    'creates a member from a password on stdin, whose password then signs in',
    async ({ cli }) => {
      const created = await cli.run(
        [
          'staff',
          'create',
          '--email',
          'Treasurer@Bank.test',
          '--name',
          'Tess Treasurer',
          '--role',
          'approver',
          '--sub-orgs',
          'sub-a, sub-b',
        ],
        'a long enough passphrase\n',
      );
      expect(created.code, created.stderr).toBe(0);
      const member = JSON.parse(created.stdout) as Record<string, unknown>;
      expect(member).toMatchObject({
        email: 'treasurer@bank.test',
        name: 'Tess Treasurer',
        role: 'approver',
        subOrgIds: ['sub-a', 'sub-b'],
        disabled: false,
      });
      expect(created.stdout).not.toContain('passphrase');

      // How a new console gets its first admins, with no other admin to approve: on record as such.
      const database = await openDatabase({
        dataDir: cli.storage.dataDir,
        databaseUrl: cli.storage.databaseUrl,
      });
      try {
        const rows = await database.db
          .select()
          .from(auditLog)
          .where(eq(auditLog.entityId, member['id'] as string));
        expect(rows.map((r) => [r.action, r.actorType, r.actorName, r.outcome])).toEqual([
          ['staff.create', 'CLI', 'command line', 'success'],
        ]);
        expect(rows[0]?.summary).toMatch(/treasurer@bank.test as approver .*command line/);
      } finally {
        await database.close();
      }

      const again = await cli.run(
        ['staff', 'create', '--email', 'treasurer@bank.test', '--name', 'Twin', '--role', 'viewer'],
        'another long passphrase',
      );
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/already exists/);

      await cli.withServer(async (url) => {
        const res = await fetch(`${url}/auth/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: url },
          body: JSON.stringify({
            email: 'treasurer@bank.test',
            password: 'a long enough passphrase',
          }),
        });
        expect(res.status).toBe(200);
        // The password is right; an approver then sets up a second factor before any session.
        expect(SecondFactorChallenge.parse(await res.json()).secondFactor).toBe('enrol');
      });
    },
  );

  cliTest('refuses a short password (exit 1) and a bad role or email (exit 2)', async ({ cli }) => {
    const short = await cli.run(
      ['staff', 'create', '--email', 'a@bank.test', '--name', 'A', '--role', 'viewer'],
      'short\n',
    );
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/at least 12 characters/);
    const role = await cli.run(
      ['staff', 'create', '--email', 'b@bank.test', '--name', 'B', '--role', 'owner'],
      'x'.repeat(20),
    );
    expect(role.code).toBe(2);
    expect(role.stderr).toMatch(/--role/);
    const email = await cli.run(
      ['staff', 'create', '--email', 'nope', '--name', 'C', '--role', 'viewer'],
      'x'.repeat(20),
    );
    expect(email.code).toBe(2);
    expect(email.stderr).toMatch(/--email: email must be an email address/);
  });
});
