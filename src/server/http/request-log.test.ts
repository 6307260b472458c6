import { Hono } from 'hono';
import { requestId } from 'hono/request-id';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import type { AppEnv } from './app-env.ts';
import { requestLog } from './request-log.ts';

function appLogging() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger('info', {
    write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  const app = new Hono<AppEnv>()
    .use(requestId())
    .use(requestLog(logger))
    .get('/quiet', (c) => c.text('ok'))
    .get('/reports', (c) => {
      c.get('log').warn({ accountNumber: '000123456789', rows: 2 }, 'something to report');
      return c.text('ok');
    });
  return { app, lines };
}

describe('request log', () => {
  it('writes one line per request: id, method, path without its query, status', async () => {
    const { app, lines } = appLogging();
    await app.request('/quiet?externalId=private-ref', { headers: { 'X-Request-Id': 'r-1' } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request',
      reqId: 'r-1',
      method: 'GET',
      path: '/quiet',
      status: 200,
      level: 30,
    });
    expect(JSON.stringify(lines)).not.toContain('private-ref');
  });

  it("keeps redaction on what a handler logs through the request's logger, with its id", async () => {
    const { app, lines } = appLogging();
    await app.request('/reports', { headers: { 'X-Request-Id': 'r-2' } });
    const reported = lines.find((l) => l['msg'] === 'something to report');
    expect(reported).toMatchObject({ reqId: 'r-2', rows: 2, accountNumber: '[redacted]' });
    expect(JSON.stringify(lines)).not.toContain('000123456789');
  });
});
