import { describe, expect, it } from 'vitest';
import { endOfUtcDay, isCompleteDay, startOfUtcDay, utcDayOf } from './dates.ts';

describe('day filters', () => {
  it('covers the whole UTC day', () => {
    expect(startOfUtcDay('2025-03-09')).toBe('2025-03-09T00:00:00.000Z');
    expect(endOfUtcDay('2025-03-09')).toBe('2025-03-09T23:59:59.999Z');
  });

  it('reads the UTC day back from an instant', () => {
    expect(utcDayOf('2025-03-09T23:59:59.999Z')).toBe('2025-03-09');
    expect(utcDayOf('2025-03-10T01:00:00+02:00')).toBe('2025-03-09');
    expect(utcDayOf(undefined)).toBe('');
    expect(utcDayOf('not a date')).toBe('');
  });

  it('accepts only complete, real days in a plausible year', () => {
    expect(isCompleteDay('2025-02-28')).toBe(true);
    expect(isCompleteDay('2024-02-29')).toBe(true);
    expect(isCompleteDay('2025-02-29')).toBe(false);
    expect(isCompleteDay('0202-02-01')).toBe(false);
    expect(isCompleteDay('2025-2-1')).toBe(false);
    expect(isCompleteDay('')).toBe(false);
  });
});
