import { describe, expect, test } from 'vitest';
import { occurrencesAfter, ScheduleTiming } from './payment-run-schedules.ts';

const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('a payment run schedule’s timing', () => {
  test('a monthly run on the 31st pays on each shorter month’s last day, at the local time', () => {
    const timing = ScheduleTiming.parse({
      repeat: 'MONTHLY',
      dayOfMonth: 31,
      time: '09:00',
      timeZone: 'Europe/Berlin',
    });
    // Berlin is UTC+1 in winter, UTC+2 from the last Sunday of March.
    expect(iso(occurrencesAfter(timing, new Date('2027-01-15T00:00:00Z'), 4))).toEqual([
      '2027-01-31T08:00:00.000Z',
      '2027-02-28T08:00:00.000Z',
      '2027-03-31T07:00:00.000Z',
      '2027-04-30T07:00:00.000Z',
    ]);
    // A leap year's February has a 29th.
    expect(iso(occurrencesAfter(timing, new Date('2028-02-01T00:00:00Z'), 1))).toEqual([
      '2028-02-29T08:00:00.000Z',
    ]);
  });

  test('the first occurrence is strictly after now, in the zone’s own date', () => {
    const timing = ScheduleTiming.parse({
      repeat: 'MONTHLY',
      dayOfMonth: 1,
      time: '00:30',
      timeZone: 'Pacific/Auckland',
    });
    // 1 March 00:30 in Auckland (UTC+13) is 28 February 11:30 UTC.
    expect(iso(occurrencesAfter(timing, new Date('2027-02-28T11:00:00Z'), 1))).toEqual([
      '2027-02-28T11:30:00.000Z',
    ]);
    expect(iso(occurrencesAfter(timing, new Date('2027-02-28T11:30:00Z'), 1))).toEqual([
      '2027-03-31T11:30:00.000Z',
    ]);
  });

  test('a schedule ends after N occurrences or on its end date, and starts on its start date', () => {
    const base = { repeat: 'MONTHLY', dayOfMonth: 15, time: '12:00', timeZone: 'UTC' } as const;
    const after = new Date('2027-01-01T00:00:00Z');
    const counted = ScheduleTiming.parse({ ...base, endAfterOccurrences: 3 });
    expect(occurrencesAfter(counted, after, 10)).toHaveLength(3);
    expect(occurrencesAfter(counted, after, 10, 2)).toHaveLength(1);
    const dated = ScheduleTiming.parse({ ...base, startsOn: '2027-03-01', endsOn: '2027-05-15' });
    expect(iso(occurrencesAfter(dated, after, 10))).toEqual([
      '2027-03-15T12:00:00.000Z',
      '2027-04-15T12:00:00.000Z',
      '2027-05-15T12:00:00.000Z',
    ]);
  });

  test('a one-off run is due once, at its local time as an instant', () => {
    const timing = ScheduleTiming.parse({
      repeat: 'ONCE',
      at: '2027-07-01T09:15',
      timeZone: 'America/New_York',
    });
    expect(iso(occurrencesAfter(timing, new Date('2027-01-01T00:00:00Z'), 3))).toEqual([
      '2027-07-01T13:15:00.000Z',
    ]);
    expect(occurrencesAfter(timing, new Date('2027-07-01T13:15:00Z'), 3)).toEqual([]);
    expect(occurrencesAfter(timing, new Date('2027-01-01T00:00:00Z'), 3, 1)).toEqual([]);
  });

  test.each([
    [{ repeat: 'MONTHLY', dayOfMonth: 0, time: '09:00', timeZone: 'UTC' }, 'dayOfMonth'],
    [{ repeat: 'MONTHLY', dayOfMonth: 32, time: '09:00', timeZone: 'UTC' }, 'dayOfMonth'],
    [{ repeat: 'MONTHLY', dayOfMonth: 1.5, time: '09:00', timeZone: 'UTC' }, 'dayOfMonth'],
    [{ repeat: 'MONTHLY', dayOfMonth: 5, time: '25:00', timeZone: 'UTC' }, 'time'],
    [{ repeat: 'MONTHLY', dayOfMonth: 5, timeZone: 'UTC' }, 'time'],
    [{ repeat: 'MONTHLY', dayOfMonth: 5, time: '09:00', timeZone: 'Mars/Olympus' }, 'timeZone'],
    [
      { repeat: 'MONTHLY', dayOfMonth: 5, time: '09:00', timeZone: 'UTC', endsOn: '2027-02-30' },
      'endsOn',
    ],
    [
      {
        repeat: 'MONTHLY',
        dayOfMonth: 5,
        time: '09:00',
        timeZone: 'UTC',
        endsOn: '2027-03-01',
        endAfterOccurrences: 2,
      },
      'endsOn',
    ],
    [
      { repeat: 'MONTHLY', dayOfMonth: 5, time: '09:00', timeZone: 'UTC', endAfterOccurrences: 0 },
      'endAfterOccurrences',
    ],
    [{ repeat: 'ONCE', timeZone: 'UTC' }, 'at'],
    [{ repeat: 'ONCE', at: '2027-13-01T09:00', timeZone: 'UTC' }, 'at'],
    [{ repeat: 'ONCE', at: '2027-01-01T09:00', dayOfMonth: 3, timeZone: 'UTC' }, 'dayOfMonth'],
    [{ repeat: 'WEEKLY', timeZone: 'UTC' }, 'repeat'],
  ])('refuses %j, naming %s', (body, field) => {
    const parsed = ScheduleTiming.safeParse(body);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.path.join('.'))).toContain(field);
    expect(parsed.error?.issues.find((i) => i.path.join('.') === field)?.message).toMatch(field);
  });
});
