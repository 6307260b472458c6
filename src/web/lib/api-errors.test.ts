import { describe, expect, it } from 'vitest';
import { listAssets } from '#contract/endpoints/reference.ts';
import { createApiClient } from './api-client.ts';
import { ApiError, describeError, parseRetryAfter } from './api-errors.ts';

describe('a 429 with Retry-After', () => {
  it('reads seconds or an HTTP date', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('tells the person when to try again', async () => {
    const client = createApiClient({
      fetch: () =>
        new Response(JSON.stringify({ message: 'Too many requests', code: 'RATE_LIMITED' }), {
          status: 429,
          headers: { 'Retry-After': '12' },
        }),
    });
    const error = await client.call(listAssets, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).retryAfterSeconds).toBe(12);
    expect(describeError(error)).toBe('Too many requests. Try again in 12 seconds.');
  });
});

describe('describeError', () => {
  it('reads a server message as a sentence, so the console’s own words can follow it', () => {
    expect(describeError(new ApiError(500, 'INTERNAL_ERROR', 'Internal error'))).toBe(
      'Internal error.',
    );
    expect(describeError(new ApiError(400, 'VALIDATION_ERROR', 'amount must be positive'))).toBe(
      'Amount must be positive.',
    );
    expect(describeError(new ApiError(409, 'CONFLICT', 'Already decided.'))).toBe(
      'Already decided.',
    );
  });
});
