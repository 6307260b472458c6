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
