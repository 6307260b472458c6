import path from 'node:path';
import { pino } from 'pino';
import { createApp, type App } from '../app.ts';
import { createSandboxBackend } from '../custody/sandbox/sandbox-backend.ts';
import { seedSandbox, type SeedSummary } from '../custody/sandbox/seed.ts';
import type { Database, DatabaseHandle } from '../db/client.ts';
import { createOrg } from './fixtures.ts';
import { createTestDatabase } from './test-database.ts';

export interface TestApp {
  app: App;
  db: Database;
  database: DatabaseHandle;
  /** The organization the app's requests act in. */
  orgId: string;
  seed?: SeedSummary;
  /** `app.request` parsed as JSON, with the status. */
  getJson(
    url: string,
    init?: RequestInit,
  ): Promise<{ status: number; body: unknown; headers: Headers }>;
  close(): Promise<void>;
}

/**
 * The real app over a fresh real database, for one test file. With `seed`,
 * the database holds the first-start seed data; otherwise it holds one empty
 * organization that the test fills with its own rows.
 */
export async function createTestApp(
  options: { seed?: boolean; staticDir?: string } = {},
): Promise<TestApp> {
  const database = await createTestDatabase();
  let orgId: string;
  let seed: SeedSummary | undefined;
  if (options.seed) {
    seed = await seedSandbox(database.db);
    orgId = seed.organizationId ?? '';
  } else {
    orgId = (await createOrg(database.db)).id;
  }
  const app = createApp({
    config: { staticDir: options.staticDir ?? path.join(process.cwd(), '.tmp', 'no-spa-here') },
    backend: createSandboxBackend({ db: database.db, orgId }),
    database,
    logger: pino({ level: 'silent' }),
  });
  return {
    app,
    db: database.db,
    database,
    orgId,
    ...(seed ? { seed } : {}),
    async getJson(url, init) {
      const res = await app.request(url, init);
      const text = await res.text();
      return {
        status: res.status,
        body: text ? (JSON.parse(text) as unknown) : undefined,
        headers: res.headers,
      };
    },
    close: () => database.close(),
  };
}
