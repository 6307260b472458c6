import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import type { AppEnv } from './app-env.ts';
import { PARENT_REQUEST_ID, requestIds, requestLine, requestLog } from './request-log.ts';

function appLogging() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger('info', {
    write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>),
  });
  const app = new Hono<AppEnv>()
    .use(requestIds())
    .use(requestLog(logger))
    .get('/quiet', (c) => c.text('ok'))
    .get('/id', (c) => c.text(c.get('requestId')))
    .get('/reports', (c) => {
      c.get('log').warn({ accountNumber: '000123456789', rows: 2 }, 'something to report');
      return c.text('ok');
    });
  return { app, lines };
}

describe('request log', () => {
  it('writes one line per request: id, method, path without its query, status', async () => {
    const { app, lines } = appLogging();
    const res = await app.request('/quiet?externalId=private-ref', {
      headers: { 'X-Request-Id': 'r-1' },
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      msg: 'request',
      reqId: res.headers.get('X-Request-Id'),
      callerReqId: 'r-1',
      method: 'GET',
      path: '/quiet',
      status: 200,
      level: 30,
    });
    expect(JSON.stringify(lines)).not.toContain('private-ref');
  });

  it("keeps redaction on what a handler logs through the request's logger, with its id", async () => {
    const { app, lines } = appLogging();
    const res = await app.request('/reports', { headers: { 'X-Request-Id': 'r-2' } });
    const reported = lines.find((l) => l['msg'] === 'something to report');
    expect(reported).toMatchObject({
      reqId: res.headers.get('X-Request-Id'),
      callerReqId: 'r-2',
      rows: 2,
      accountNumber: '[redacted]',
    });
    expect(JSON.stringify(lines)).not.toContain('000123456789');
  });

  it("makes every request's id its own; a caller's id is only logged, and only when well-formed", async () => {
    const { app, lines } = appLogging();
    for (const [sent, logged] of [
      ['proxy-7f3a.2', 'proxy-7f3a.2'],
      ['x'.repeat(64), 'x'.repeat(64)],
      ['x'.repeat(65), undefined],
      ['evil\tid', undefined],
      ['a b', undefined],
      ['forged"}', undefined],
      ['', undefined],
    ] as const) {
      lines.length = 0;
      const res = await app.request('/id', { headers: { 'X-Request-Id': sent } });
      const id = await res.text();
      expect(id, sent).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get('X-Request-Id'), sent).toBe(id);
      expect(lines[0]?.['reqId'], sent).toBe(id);
      expect(lines[0]?.['callerReqId'], sent).toBe(logged);
    }
    const a = await (await app.request('/id')).text();
    const b = await (await app.request('/id')).text();
    expect(a).not.toBe(b);
  });

  it("gives a request the app makes to itself its page request's id, which no header can", async () => {
    const { app } = appLogging();
    const res = await app.request('/id', {}, { [PARENT_REQUEST_ID]: 'page-request-id' });
    expect(await res.text()).toBe('page-request-id');
  });

  it('writes the request line as the logger itself would, field for field and in order', () => {
    const written: string[] = [];
    const logger = createLogger('info', { write: (line: string) => written.push(line) });
    const fields = {
      reqId: '5a308fb1-3dda-452a-b2ee-960d758ac379',
      method: 'GET',
      path: '/odd/"path"\\with\u0001controls',
      status: 404,
      ms: 12,
    };
    for (const callerReqId of [undefined, 'proxy-7f3a.2']) {
      written.length = 0;
      // The order the request line had when pino wrote it: the ids, then the rest.
      const { reqId, ...rest } = fields;
      logger.info(callerReqId === undefined ? fields : { reqId, callerReqId, ...rest }, 'request');
      requestLine(logger)({ ...fields, callerReqId });
      const [byPino, byUs] = written.map((l) => {
        expect(l.endsWith('\n')).toBe(true);
        return JSON.parse(l) as Record<string, unknown>;
      });
      expect(Object.keys(byUs!)).toEqual(Object.keys(byPino!));
      expect({ ...byUs, time: undefined }).toEqual({ ...byPino, time: undefined });
      expect(byUs!['time']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }
  });

  it('writes no request line when the logger is above info', () => {
    const written: string[] = [];
    const logger = createLogger('warn', { write: (line: string) => written.push(line) });
    requestLine(logger)({
      reqId: 'r',
      callerReqId: undefined,
      method: 'GET',
      path: '/',
      status: 200,
      ms: 0,
    });
    expect(written).toEqual([]);
  });
});
