import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

function capture() {
  let out = '';
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  return { logger: createLogger('info', stream), output: () => out };
}

describe('logger redaction', () => {
  it('never writes account numbers, routing numbers or credentials', () => {
    const { logger, output } = capture();
    const account = {
      id: 'ba-1',
      accountNumber: 'DE89370400440532013000',
      routingNumber: '021000021',
    };
    logger.info({ accountNumber: '111122223333', bankAccount: account }, 'flat and nested');
    logger.info({ response: { results: [account] } }, 'in a list');
    logger.info(
      {
        req: {
          headers: {
            authorization: 'Bearer eyJ.secret',
            cookie: 'sid=s3cret',
            'api-key': 'key-123',
          },
        },
      },
      'headers',
    );
    const text = output();
    for (const secret of [
      '111122223333',
      'DE89370400440532013000',
      '021000021',
      'eyJ.secret',
      's3cret',
      'key-123',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('[redacted]');
    expect(text).toContain('ba-1');
  });
});
