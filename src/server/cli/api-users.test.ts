import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/client.ts';
import { apiUsers, subOrgs } from '../db/schema/sandbox.ts';
import { runCliInProcess } from '../test/cli-test.ts';
import { createTestDatabaseConfig, type TestDatabaseConfig } from '../test/test-database.ts';

let storage: TestDatabaseConfig;
beforeAll(async () => {
  storage = await createTestDatabaseConfig();
});
afterAll(() => storage.cleanup());

async function cli(args: string[]) {
  const env: Record<string, string> = { DATA_DIR: storage.dataDir, LOG_LEVEL: 'silent' };
  if (storage.databaseUrl) env.DATABASE_URL = storage.databaseUrl;
  return runCliInProcess(args, env);
}

/** Reads the data directory the CLI left, once the CLI has let it go. */
async function withDatabase<T>(
  read: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>,
) {
  const database = await openDatabase({
    dataDir: storage.dataDir,
    databaseUrl: storage.databaseUrl,
  });
  try {
    return await read(database.db);
  } finally {
    await database.close();
  }
}

describe('npm run cli -- api-users create --sub-orgs', () => {
  it(
    'holds the API user to the sub-organizations named; refuses one its organization does not have',
    { timeout: 120_000 },
    async () => {
      const unknown = await cli(['api-users', 'create', '--name', 'held', '--sub-orgs', 'nope']);
      expect(unknown.code).toBe(1);
      expect(unknown.stdout).toBe('');
      expect(unknown.stderr).toMatch(/No sub-organization nope in organization/);

      const [first] = await withDatabase((db) =>
        db.select({ id: subOrgs.id }).from(subOrgs).limit(1),
      );
      if (!first) throw new Error('the seeded sandbox has no sub-organization');
      const held = await cli(['api-users', 'create', '--name', 'held', '--sub-orgs', first.id]);
      expect(held.code, held.stderr).toBe(0);
      const { apiKey } = JSON.parse(held.stdout) as { apiKey: string };
      const [row] = await withDatabase((db) =>
        db
          .select({ subOrgIds: apiUsers.subOrgIds })
          .from(apiUsers)
          .where(eq(apiUsers.apiKey, apiKey)),
      );
      expect(row?.subOrgIds).toEqual([first.id]);
    },
  );
});

describe('npm run cli -- api-users create with a scope, networks and an expiry; revoke', () => {
  it('refuses each bad flag naming it, before anything is made', { timeout: 120_000 }, async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--scope', 'everything'], /--scope must be one of read_only, create, create_and_approve/],
      [
        ['--allow-cidr', '10.0.0.0/8', '--allow-cidr', '10.0.0.0/33'],
        /--allow-cidr 10\.0\.0\.0\/33: must be an IPv4 or IPv6 network/,
      ],
      [['--expires', 'tomorrow'], /--expires must be an ISO 8601 time/],
      [['--expires', '2001-01-01T00:00:00Z'], /--expires must be in the future/],
      [['--sub-org', ''], /--sub-org must name a sub-organization id/],
    ];
    for (const [flags, message] of cases) {
      const res = await cli(['api-users', 'create', '--name', 'flagged', ...flags]);
      expect(res.code, `${flags.join(' ')}: ${res.stderr}`).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toMatch(message);
    }
    const made = await withDatabase((db) =>
      db.select({ id: apiUsers.id }).from(apiUsers).where(eq(apiUsers.name, 'flagged')),
    );
    expect(made).toEqual([]);
  });

  it(
    'holds the API user to what the flags say, and revokes it by id',
    { timeout: 120_000 },
    async () => {
      const [first] = await withDatabase((db) =>
        db.select({ id: subOrgs.id }).from(subOrgs).limit(1),
      );
      if (!first) throw new Error('the seeded sandbox has no sub-organization');
      const expires = new Date(Date.now() + 86_400_000).toISOString();
      const made = await cli([
        'api-users',
        'create',
        '--name',
        'flagged bot',
        '--scope',
        'read_only',
        '--sub-org',
        first.id,
        '--allow-cidr',
        '203.0.113.0/24',
        '--allow-cidr',
        '2001:db8::/32',
        '--expires',
        expires,
      ]);
      expect(made.code, made.stderr).toBe(0);
      const { apiKey } = JSON.parse(made.stdout) as { apiKey: string };
      const [row] = await withDatabase((db) =>
        db.select().from(apiUsers).where(eq(apiUsers.apiKey, apiKey)),
      );
      expect(row).toMatchObject({
        scope: 'read_only',
        subOrgIds: [first.id],
        allowedCidrs: ['203.0.113.0/24', '2001:db8::/32'],
        revokedAt: null,
      });
      expect(row?.expiresAt?.toISOString()).toBe(expires);
      if (!row) throw new Error('no row');

      const unknown = await cli(['api-users', 'revoke', '--id', 'no-such-user']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/--id: no API user with id "no-such-user"/);

      const revoked = await cli(['api-users', 'revoke', '--id', row.id]);
      expect(revoked.code, revoked.stderr).toBe(0);
      const [after] = await withDatabase((db) =>
        db.select({ revokedAt: apiUsers.revokedAt }).from(apiUsers).where(eq(apiUsers.id, row.id)),
      );
      expect(after?.revokedAt).not.toBeNull();
      const again = await cli(['api-users', 'revoke', '--id', row.id]);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/already revoked/);
    },
  );
});
