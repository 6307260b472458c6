import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect } from 'vitest';
import { ApiErrorBody } from '#contract/common.ts';
import { paths } from '#contract/paths.ts';
import { createApp } from './app.ts';
import type { CustodyBackend } from './custody/backend.ts';
import { createSandboxBackend } from './wiring/sandbox-backend.ts';
import { generateApiUserKeyPair } from './protocol/ecdsa-keys.ts';
import { createUpstreamBackend } from './wiring/upstream-backend.ts';
import { actAsAdmin } from './test/staff-session.ts';
import { appTest } from './test/app-test.ts';
import type { TestApp } from './test/test-app.ts';

/** A logger whose lines the test can read. */
function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

async function appWith(t: TestApp, backend: CustodyBackend, database = t.database) {
  const { logger, lines } = capturingLogger();
  const app = createApp({
    config: { staticDir: '/nonexistent' },
    backend,
    database,
    logger,
    auth: { db: t.db, clock: t.clock },
  });
  await actAsAdmin(app, t.db, t.clock);
  return { app, lines };
}

describe('/healthz', () => {
  appTest('answers 200 with the database ok', async ({ t }) => {
    const res = await t.getJson('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok', db: 'ok', backend: 'sandbox' });
  });

  appTest('answers 503 when the database does not', async ({ t }) => {
    const broken = {
      driver: 'pglite' as const,
      ping: () => Promise.reject(new Error('connection refused')),
    };
    const { app } = await appWith(t, createSandboxBackend({ db: t.db }), {
      ...t.database,
      ...broken,
    });
    const res = await app.request('/healthz');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'unavailable', db: 'error' });
  });
});

describe('errors', () => {
  appTest('answers an unknown /api route with 404 ROUTE_NOT_FOUND JSON', async ({ t }) => {
    for (const url of ['/api/external/nothing/', '/api/nothing', '/auth/nothing']) {
      const res = await t.getJson(url);
      expect(res.status, url).toBe(404);
      expect(ApiErrorBody.parse(res.body).code).toBe('ROUTE_NOT_FOUND');
    }
    const noSlash = await t.getJson('/api/external/transactions');
    expect(ApiErrorBody.parse(noSlash.body).message).toMatch(/end with a slash/);
  });

  appTest(
    'turns an unexpected failure into a 500 that reveals nothing, and logs it',
    async ({ t }) => {
      const failing = {
        ...createSandboxBackend({ db: t.db }),
        listTransactions: () => Promise.reject(new Error('relation "secret_table" does not exist')),
      };
      const { app, lines } = await appWith(t, failing);
      const res = await app.request(paths.transactions(), {
        headers: { 'X-Request-Id': 'req-500-test' },
      });
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ message: 'Internal error', code: 'INTERNAL_ERROR' });
      expect(text).not.toContain('secret_table');
      const logged = lines.find((l) => l['msg'] === 'unhandled error');
      expect(logged?.['reqId']).toBe(res.headers.get('X-Request-Id'));
      expect(logged?.['callerReqId']).toBe('req-500-test');
      expect(JSON.stringify(logged)).toContain('secret_table');
    },
  );

  appTest('answers a value the database refuses with 400, not 500', async ({ t }) => {
    const refusing = {
      ...createSandboxBackend({ db: t.db }),
      listTransactions: () =>
        Promise.reject(
          new Error('Failed query', {
            cause: Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
              code: '22021',
            }),
          }),
        ),
    };
    const { app } = await appWith(t, refusing);
    const res = await app.request(paths.transactions());
    expect(res.status).toBe(400);
    expect(ApiErrorBody.parse(await res.json()).code).toBe('VALIDATION_ERROR');
  });

  appTest(
    'answers 502 UPSTREAM_UNAVAILABLE with the request id when the custody API cannot be reached',
    async ({ t }) => {
      const { app } = await appWith(
        t,
        createUpstreamBackend({
          // Port 1 on loopback: nothing listens there, the connection is refused.
          baseUrl: 'http://127.0.0.1:1',
          apiKey: 'console-api-key',
          privateKey: generateApiUserKeyPair().privateKeyHex,
          timeoutMs: 5000,
          backoffMs: 1,
          db: t.db,
        }),
      );
      const res = await app.request(paths.bankAccounts(), {
        headers: { 'X-Request-Id': 'req-502' },
      });
      expect(res.status).toBe(502);
      expect(await res.json()).toMatchObject({
        code: 'UPSTREAM_UNAVAILABLE',
        requestId: res.headers.get('X-Request-Id'),
      });
    },
  );
});

describe('request handling', () => {
  appTest(
    'gives every response its own request id, never the caller’s (logged beside it)',
    async ({ t }) => {
      const own = await t.app.request('/healthz', { headers: { 'X-Request-Id': 'abc-123' } });
      expect(own.headers.get('X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
      const made = await t.app.request('/healthz');
      expect(made.headers.get('X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
    },
  );

  appTest(
    'marks API answers uncacheable, since they can hold full account numbers',
    async ({ t }) => {
      const res = await t.app.request(paths.bankAccounts());
      expect(res.headers.get('Cache-Control')).toBe('no-store');
      expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    },
  );

  appTest(
    'logs one line per request with the request id, without the query string',
    async ({ t }) => {
      const { app, lines } = await appWith(t, createSandboxBackend({ db: t.db }));
      await app.request(`${paths.transactions()}?externalId=private-ref`, {
        headers: { 'X-Request-Id': 'log-line' },
      });
      const line = lines.find((l) => l['callerReqId'] === 'log-line' && l['msg'] === 'request');
      expect(line).toMatchObject({ method: 'GET', path: paths.transactions(), status: 200 });
      expect(JSON.stringify(lines)).not.toContain('private-ref');
    },
  );
});
