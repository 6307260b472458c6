import { describe, expect, it } from 'vitest';
import { monthOfIn, periodInstants, recentMonths } from './statement-period.ts';

describe('a statement’s period in the member’s zone', () => {
  it('bounds a month by its first instants in the zone, across a year’s end', () => {
    // 03:00 UTC on 1 January is still 31 December in Los Angeles.
    const now = new Date('2031-01-01T03:00:00Z');
    expect(monthOfIn(now, 'America/Los_Angeles')).toBe('2030-12');
    expect(periodInstants({}, 'America/Los_Angeles', now)).toEqual({
      from: '2030-12-01T08:00:00.000Z',
      to: '2031-01-01T08:00:00.000Z',
      label: 'December 2030',
    });
    expect(periodInstants({ month: '2030-03' }, 'Asia/Tokyo', now)).toMatchObject({
      from: '2030-02-28T15:00:00.000Z',
      to: '2030-03-31T15:00:00.000Z',
    });
    expect(recentMonths('2031-02', 3)).toEqual(['2031-02', '2031-01', '2030-12']);
  });

  it('takes two days both included', () => {
    expect(periodInstants({ from: '2030-03-09', to: '2030-03-10' }, 'UTC', new Date())).toEqual({
      from: '2030-03-09T00:00:00.000Z',
      to: '2030-03-11T00:00:00.000Z',
      label: '2030-03-09 to 2030-03-10',
    });
  });
});
