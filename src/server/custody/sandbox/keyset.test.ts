import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../contract/api-error.ts';
import { decodeCursor, encodeCursor } from './keyset.ts';

const position = { createdAt: new Date('2026-01-02T03:04:05.678Z'), id: 'tx-1' };

describe('keyset cursors', () => {
  it('round-trips a position, to the millisecond', () => {
    expect(decodeCursor('transactions', encodeCursor('transactions', position))).toEqual(position);
  });

  it('is URL-safe', () => {
    expect(encodeCursor('transactions', { ...position, id: 'a/b+c?d' })).toMatch(
      /^[A-Za-z0-9_.-]+$/,
    );
  });

  it.each([
    ['another list', encodeCursor('bank_accounts', position)],
    [
      'an edited body',
      encodeCursor('transactions', position).replace(/^./, (c) => (c === 'e' ? 'f' : 'e')),
    ],
    ['no digest', encodeCursor('transactions', position).split('.')[0] ?? ''],
    ['garbage', '!!!'],
    ['valid base64 of non-JSON', `${Buffer.from('hello').toString('base64url')}.xxxxxxxxxxxxxxxx`],
  ])('refuses %s with INVALID_CURSOR', (_label, cursor) => {
    try {
      decodeCursor('transactions', cursor);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(400);
      expect((error as ApiError).code).toBe('INVALID_CURSOR');
    }
  });
});
