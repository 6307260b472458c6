import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createLogger } from './logger.ts';
import { createTestDatabase } from './test/test-database.ts';

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

describe('logged errors', () => {
  it('never carry the parameters of a failed query, in any link of the cause chain', async () => {
    const { logger, output } = capture();
    const database = await createTestDatabase();
    try {
      await database.db.execute(
        sql`select ${'DE89370400440532013000'}::uuid, ${'scrypt$16384$8$1$c2FsdA$aGFzaA'}::text`,
      );
    } catch (error) {
      logger.error({ err: error }, 'query failed');
    } finally {
      await database.close();
    }
    const text = output();
    expect(text).toContain('22P02');
    expect(text).toContain('Failed query: select $1::uuid');
    expect(text).not.toContain('DE89370400440532013000');
    expect(text).not.toContain('scrypt$');
  });

  it('withhold what a unique violation says about the duplicate value, and keep the names', () => {
    const { logger, output } = capture();
    const cause = Object.assign(
      new Error('duplicate key value violates unique constraint "staff_email_key"'),
      {
        code: '23505',
        severity: 'ERROR',
        detail: 'Key (email)=(owner@example.com) already exists.',
        constraint: 'staff_email_key',
        table: 'staff',
        params: ['owner@example.com', 'scrypt$1$2$3$salt$hash'],
        query: 'insert into staff values ($1, $2)',
      },
    );
    logger.error({ err: new Error('wrapped', { cause }) }, 'insert failed');
    const text = output();
    expect(text).toContain('staff_email_key');
    expect(text).toContain('23505');
    expect(text).not.toContain('owner@example.com');
    expect(text).not.toContain('scrypt$');
  });

  it('withhold the text a JSON parse error quotes', () => {
    const { logger, output } = capture();
    try {
      JSON.parse('x123456789012');
    } catch (error) {
      logger.warn({ err: error }, 'bad json');
    }
    expect(output()).not.toContain('123456789012');
  });
});
