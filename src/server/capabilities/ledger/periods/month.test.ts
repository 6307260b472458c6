import { describe, expect, it } from 'vitest';
import { monthBounds, monthName, monthOf, nextMonth, previousMonth } from './month.ts';

describe('months in a time zone', () => {
  it('a month in UTC is its two midnights', () => {
    expect(monthBounds('2030-03', 'UTC')).toEqual({
      from: new Date('2030-03-01T00:00:00Z'),
      to: new Date('2030-04-01T00:00:00Z'),
    });
  });

  it('a month in New York starts at its local midnight and is an hour short when summer time starts', () => {
    const { from, to } = monthBounds('2030-03', 'America/New_York');
    expect(from.toISOString()).toBe('2030-03-01T05:00:00.000Z');
    expect(to.toISOString()).toBe('2030-04-01T04:00:00.000Z');
  });

  it('a month east of UTC starts the day before in UTC; December runs into the next year', () => {
    const { from, to } = monthBounds('2030-12', 'Asia/Tokyo');
    expect(from.toISOString()).toBe('2030-11-30T15:00:00.000Z');
    expect(to.toISOString()).toBe('2030-12-31T15:00:00.000Z');
  });

  it('an instant falls in the month of its zone', () => {
    const instant = new Date('2030-04-01T02:00:00Z');
    expect(monthOf(instant, 'UTC')).toBe('2030-04');
    expect(monthOf(instant, 'America/New_York')).toBe('2030-03');
  });

  it('months follow each other across years; names read as people write them', () => {
    expect(nextMonth('2030-12')).toBe('2031-01');
    expect(previousMonth('2031-01')).toBe('2030-12');
    expect(monthName('2030-10')).toBe('October 2030');
  });
});
