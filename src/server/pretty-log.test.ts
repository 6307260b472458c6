import { describe, expect, it } from 'vitest';
import { formatLogLine } from './pretty-log.ts';

describe('formatLogLine', () => {
  it('turns a request record into one readable line', () => {
    const line = JSON.stringify({
      level: 30,
      time: '2026-11-23T09:32:25.802Z',
      service: 'custody-console',
      reqId: 'r1',
      method: 'GET',
      path: '/healthz',
      status: 200,
      ms: 20,
      msg: 'request',
    });
    expect(formatLogLine(line, false)).toBe(
      '09:32:25.802 INFO  request reqId=r1 method=GET path=/healthz status=200 ms=20\n',
    );
  });

  it('quotes values with spaces, shows objects as JSON and an error stack below', () => {
    const line = JSON.stringify({
      level: 50,
      time: '2026-11-23T09:32:25.802Z',
      msg: 'unhandled error',
      note: 'two words',
      counts: { a: 1 },
      err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x' },
    });
    expect(formatLogLine(line, false)).toBe(
      '09:32:25.802 ERROR unhandled error note="two words" counts={"a":1}\n    Error: boom\n        at x\n',
    );
  });

  it('passes a line that is not JSON through', () => {
    expect(formatLogLine('plain text', false)).toBe('plain text\n');
  });
});
