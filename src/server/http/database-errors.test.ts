import pg from 'pg';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '#contract/auth.ts';
import { paths } from '#contract/paths.ts';
import { createApp } from '../app.ts';
import { createSandboxBackend } from '../wiring/sandbox-backend.ts';
import { wrapPgPool, type DatabaseHandle } from '../db/client.ts';
import { freePort } from '../test/served.ts';
import { isDatabaseUnavailable, isDataException } from './database-errors.ts';

// A PostgreSQL that does not answer is 503 DATABASE_UNAVAILABLE with a
// Retry-After, never a 500. database-outage.test.ts stops a real one.

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('knows the connection failures, however they are wrapped', () => {
    for (const code of ['08006', '08001', '08P01', '57P01', '57P02', '57P03', '53300'])
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH'])
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated due to connection timeout',
      'timeout exceeded when trying to connect',
      'Client has encountered a connection error and is not queryable',
    ])
      expect(isDatabaseUnavailable(new Error(message)), message).toBe(true);
    // Drizzle's wrapper, and a refused connection to every address of a host.
    expect(
      isDatabaseUnavailable(new Error('Failed query: select 1', { cause: withCode('57P01') })),
    ).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED')]))).toBe(true);
  });

  it('leaves every other error alone: a refused value, a constraint, a bug', () => {
    for (const error of [
      withCode('22021'),
      withCode('23505'),
      withCode('40001'),
      new Error('relation "x" does not exist'),
      new TypeError('cannot read properties of undefined'),
      'not an error',
      undefined,
    ])
      expect(isDatabaseUnavailable(error)).toBe(false);
    expect(isDataException(withCode('57P01'))).toBe(false);
  });
});

describe('an API read while PostgreSQL cannot be reached', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    // A port nothing listens on: every connection is refused, as with a stopped server.
    const port = await freePort();
    database = wrapPgPool(
      new pg.Pool({ host: '127.0.0.1', port, user: 'nobody', database: 'none', max: 2 }),
    );
  });
  afterAll(() => database.close());

  it('answers 503 DATABASE_UNAVAILABLE with Retry-After, not 500', async () => {
    const app = createApp({
      config: { staticDir: '/nonexistent' },
      backend: createSandboxBackend({ db: database.db }),
      database,
      logger: pino({ level: 'silent' }),
      auth: { db: database.db },
    });
    const cookie = `${SESSION_COOKIE}=${'a'.repeat(43)}`;
    for (const url of [paths.transactions(), '/auth/session']) {
      const res = await app.request(url, { headers: { cookie } });
      expect(res.status, url).toBe(503);
      expect(res.headers.get('Retry-After'), url).toBe('5');
      expect(await res.json(), url).toEqual({
        message: 'The database is not available at the moment; try again in a few seconds',
        code: 'DATABASE_UNAVAILABLE',
      });
    }
    expect((await app.request('/healthz')).status).toBe(503);
  });
});
