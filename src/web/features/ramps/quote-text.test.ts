import { describe, expect, it } from 'vitest';
import { describeExpiry, describeWait, isExpired, secondsLeft } from './quote-text.ts';

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
