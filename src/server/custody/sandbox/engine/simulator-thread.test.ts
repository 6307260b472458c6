import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CSRF_HEADER } from '#contract/auth.ts';
import { loadConfig, type AppConfig } from '../../../env.ts';
import { startServer } from '../../../server.ts';
import { signInAsDemo } from '../../../test/served.ts';
import { createTestDatabaseConfig, type TestDatabaseConfig } from '../../../test/test-database.ts';

/**
 * The server's simulator runs off the request thread on either store: beside
 * PGlite in its thread (db/pglite-worker.ts), or over PostgreSQL in a thread
 * with a pool of its own (simulator-thread.ts). A transfer created and
 * approved over HTTP completes, and the server stops with its thread.
 */

let storage: TestDatabaseConfig;
let config: AppConfig;
beforeAll(async () => {
  storage = await createTestDatabaseConfig();
  config = {
    ...loadConfig({
      PORT: '0',
      LOG_LEVEL: 'silent',
      STATIC_DIR: '/nonexistent-spa',
      // A lifecycle in well under a second of real time.
      SANDBOX_TIME_SCALE: '100000',
    }),
    dataDir: storage.dataDir,
    databaseUrl: storage.databaseUrl,
  };
});
afterAll(() => storage.cleanup());

describe("the server's simulator in its own thread", () => {
  it('completes a transfer created and approved over HTTP, and stops with the server', async () => {
    const server = await startServer(config, pino({ level: 'silent' }));
    try {
      const base = server.url;
      const call = async (
        session: { cookie: string; csrf: string },
        path: string,
        body?: unknown,
      ): Promise<Record<string, unknown>> => {
        const res = await fetch(`${base}${path}`, {
          method: body === undefined ? 'GET' : 'POST',
          headers: {
            cookie: session.cookie,
            [CSRF_HEADER]: session.csrf,
            origin: base,
            'content-type': 'application/json',
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        expect(res.status, await res.clone().text()).toBeLessThan(300);
        return (await res.json()) as Record<string, unknown>;
      };
      const initiator = await signInAsDemo(base, 'initiator');
      const approver = await signInAsDemo(base, 'approver');
      const vaults = (await call(initiator, '/api/external/vaults/?limit=100')) as {
        results: Array<{ id: string; wallets?: Array<{ blockchain: string }> }>;
      };
      const funded: string[] = [];
      for (const vault of vaults.results) {
        if (!vault.wallets?.some((w) => w.blockchain === 'ETHEREUM')) continue;
        const balances = (await call(initiator, `/api/external/vaults/${vault.id}/balances/`)) as {
          ETH?: { ETHEREUM?: string };
        };
        if (Number(balances.ETH?.ETHEREUM ?? '0') >= 1) funded.push(vault.id);
      }
      const [from, to] = funded;
      expect(to).toBeDefined();
      const created = await call(initiator, '/api/external/transactions/', {
        category: 'TRANSFER',
        source: { type: 'VAULT', id: from },
        destination: { type: 'VAULT', id: to },
        amount: '0.0001',
        asset: 'ETH',
        blockChain: 'ETHEREUM',
      });
      const id = String(created.id);
      const message = await call(
        approver,
        `/api/external/change_requests/approvals/approval_message/?entityId=${id}`,
      );
      await call(
        approver,
        `/api/external/change_requests/approvals/${String(message.approvalId)}/action/`,
        {
          action: 'approve',
        },
      );
      await vi.waitFor(
        async () =>
          expect((await call(initiator, `/api/external/transactions/${id}/`)).status).toBe(
            'COMPLETED',
          ),
        { timeout: 30_000, interval: 100 },
      );
    } finally {
      await server.close();
    }
  });
});
