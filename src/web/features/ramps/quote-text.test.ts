import { describe, expect, it } from 'vitest';
import {
  describeAge,
  describeExpiry,
  describeLock,
  describeWait,
  isExpired,
  secondsLeft,
} from './quote-text.ts';

describe('expiry', () => {
  const at = Date.parse('2026-01-01T10:00:00Z');
  const q = { expiresAt: '2026-01-01T10:01:00Z' };

  it('counts whole seconds down to zero, and is expired at zero', () => {
    expect(secondsLeft(q, at)).toBe(60);
    expect(secondsLeft(q, at + 59_500)).toBe(1);
    expect(isExpired(q, at + 59_500)).toBe(false);
    expect(secondsLeft(q, at + 60_000)).toBe(0);
    expect(isExpired(q, at + 90_000)).toBe(true);
  });

  it('leaves a quote without a readable expiry to the server', () => {
    expect(secondsLeft({}, at)).toBeUndefined();
    expect(isExpired({ expiresAt: 'soon' }, at)).toBe(false);
  });

  it('says it in words', () => {
    expect(describeExpiry(42)).toBe('Expires in 42 s');
    expect(describeExpiry(65)).toBe('Expires in 1 min 5 s');
    expect(describeExpiry(120)).toBe('Expires in 2 min');
    expect(describeExpiry(0)).toBe('Expired');
    expect(describeWait(300)).toBe('about 5 min');
    expect(describeWait(3600)).toBe('about 1 h');
    expect(describeWait(undefined)).toBe('not stated');
  });
});

describe('describeLock', () => {
  const at = Date.parse('2026-01-01T14:02:10Z');
  const q = { expiresAt: '2026-01-01T14:03:10Z' };

  it('says what is locked and until when while the quote holds', () => {
    expect(describeLock(q, at)).toBe('Rate locked until 14:03:10 UTC (60 s)');
    expect(describeLock(q, at + 18_000)).toBe('Rate locked until 14:03:10 UTC (42 s)');
  });

  it('once expired, says how long ago and that it is re-quoted before it executes', () => {
    expect(describeLock(q, at + 60_000 + 16 * 60_000)).toBe(
      'Quote expired 16 min ago: it will be re-quoted before it executes',
    );
    expect(describeLock(q, at + 90_000)).toBe(
      'Quote expired 30 s ago: it will be re-quoted before it executes',
    );
    expect(describeLock(q, at + 90_000, { executes: false })).toBe('Quote expired at 14:03:10 UTC');
  });

  it('tells the quote’s age from when it was priced', () => {
    expect(describeAge(q, at + 17 * 60_000)).toBe('17 min');
    expect(describeAge(q, at + 5_000)).toBe('5 s');
  });
});
