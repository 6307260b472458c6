import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliInProcess } from '../test/cli-test.ts';
import { createTestDatabaseConfig, type TestDatabaseConfig } from '../test/test-database.ts';

let storage: TestDatabaseConfig;
beforeAll(async () => {
  storage = await createTestDatabaseConfig();
});
afterAll(() => storage.cleanup());

async function cli(args: string[], extra: Record<string, string> = {}) {
  const env: Record<string, string> = { DATA_DIR: storage.dataDir, LOG_LEVEL: 'silent', ...extra };
  if (storage.databaseUrl) env.DATABASE_URL = storage.databaseUrl;
  return runCliInProcess(args, env);
}

describe('npm run cli -- webhooks', () => {
  it(
    'adds (key shown once), lists (never the key) and removes an endpoint; refuses a private target unless allowed',
    { timeout: 120_000 },
    async () => {
      const refused = await cli(['webhooks', 'add', '--url', 'http://127.0.0.1:9/hook']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/url must not point at a private, loopback/);

      const bad = await cli(['webhooks', 'add', '--url', 'ftp://x', '--events', 'NOPE']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toMatch(/--url: url must use https \(or http\), not ftp/);
      expect(bad.stderr).toMatch(/--events: events must each be one of/);

      const allowed = { WEBHOOK_ALLOW_PRIVATE_TARGETS: '1' };
      const added = await cli(
        [
          'webhooks',
          'add',
          '--url',
          'http://127.0.0.1:9/hook',
          '--events',
          'TRANSACTION_STATUS_CHANGED',
          '--encoding',
          'UNESCAPED',
        ],
        allowed,
      );
      expect(added.code, added.stderr).toBe(0);
      const endpoint = JSON.parse(added.stdout) as Record<string, unknown>;
      expect(endpoint).toMatchObject({
        url: 'http://127.0.0.1:9/hook',
        events: ['TRANSACTION_STATUS_CHANGED'],
        signatureEncoding: 'UNESCAPED',
        enabled: true,
      });
      expect(String(endpoint.verificationKey)).toMatch(/^whsec_/);
      expect(added.stderr).not.toContain(String(endpoint.verificationKey));

      const listed = await cli(['webhooks', 'list']);
      expect(listed.code).toBe(0);
      expect(JSON.parse(listed.stdout)).toMatchObject({ id: endpoint.id });
      expect(listed.stdout).not.toContain(String(endpoint.verificationKey));

      expect((await cli(['webhooks', 'remove', '--id', String(endpoint.id)])).code).toBe(0);
      const again = await cli(['webhooks', 'remove', '--id', String(endpoint.id)]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain(`No webhook endpoint with id "${String(endpoint.id)}"`);
      expect((await cli(['webhooks', 'list'])).stdout).toBe('');
    },
  );
});
