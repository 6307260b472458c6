import { createServer, type AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TransactionListResponse } from '#contract/transaction.ts';
import { loadConfig, type AppConfig } from './env.ts';
import { startServer } from './server.ts';
import { demoViewerGet } from './test/served.ts';
import { createTestDatabaseConfig, type TestDatabaseConfig } from './test/test-database.ts';

// The whole start-up path over real HTTP: open, migrate, seed, listen, stop.
let storage: TestDatabaseConfig;
let config: AppConfig;
beforeAll(async () => {
  storage = await createTestDatabaseConfig();
  config = {
    ...loadConfig({ PORT: '0', LOG_LEVEL: 'silent', STATIC_DIR: '/nonexistent-spa' }),
    dataDir: storage.dataDir,
    databaseUrl: storage.databaseUrl,
  };
});
afterAll(() => storage.cleanup());

const logger = pino({ level: 'silent' });

/** GET as the sandbox's demo viewer, signed in over HTTP like a browser would, parsed. */
async function viewerGet(base: string) {
  const get = await demoViewerGet(base);
  return async (path: string) => (await get(path)).json();
}

describe('startServer', () => {
  it('serves seeded data over HTTP, stops, and starts again on the same data without reseeding', async () => {
    const first = await startServer(config, logger);
    expect(first.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${first.url}/healthz`)).json()).toMatchObject({
      status: 'ok',
      db: 'ok',
    });
    const page = TransactionListResponse.parse(
      await (
        await viewerGet(first.url)
      )('/api/external/transactions/?limit=5'),
    );
    expect(page.results).toHaveLength(5);
    // Readiness as before, with how far the lifecycle simulator is behind for an operator.
    const ready = (await (await fetch(`${first.url}/readyz`)).json()) as Record<string, unknown>;
    expect(ready).toMatchObject({
      status: 'ready',
      backend: 'sandbox',
      simulator: { due: expect.any(Number), oldestDueSeconds: expect.any(Number) },
    });
    await first.close();
    await expect(fetch(`${first.url}/healthz`)).rejects.toThrow();

    const second = await startServer(config, logger);
    try {
      const get = await viewerGet(second.url);
      const again = TransactionListResponse.parse(await get('/api/external/transactions/?limit=5'));
      expect(again.results.map((r) => r.id)).toEqual(page.results.map((r) => r.id));
      const subOrgs = (await get('/api/external/sub_orgs/')) as {
        results: unknown[];
      };
      expect(subOrgs.results).toHaveLength(3);
    } finally {
      await second.close();
    }
  });

  it('fails to start, releasing the database, when the port is taken', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      await expect(startServer({ ...config, port }, logger)).rejects.toThrow(/EADDRINUSE/);
    } finally {
      holder.close();
    }
    // The database was closed on the way out: it opens again at once.
    const after = await startServer(config, logger);
    await after.close();
  });
});
