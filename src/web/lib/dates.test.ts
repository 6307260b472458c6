import { describe, expect, it } from 'vitest';
import {
  dayOfIn,
  endOfDayIn,
  formatDateTime,
  formatUtcDateTime,
  isCompleteDay,
  isoInZone,
  startOfDayIn,
  zoneOffsetMs,
} from './dates.ts';

const HOUR = 3_600_000;
const hoursBetween = (from: string, to: string) => (Date.parse(to) + 1 - Date.parse(from)) / HOUR;

describe('a day in a time zone, as the instants a filter takes', () => {
  it('is the UTC day in UTC', () => {
    expect(startOfDayIn('2025-03-09', 'UTC')).toBe('2025-03-09T00:00:00.000Z');
    expect(endOfDayIn('2025-03-09', 'UTC')).toBe('2025-03-09T23:59:59.999Z');
  });

  it('follows Los Angeles across both DST changes (a 23-hour and a 25-hour day)', () => {
    const zone = 'America/Los_Angeles';
    // Nov 24: PST, eight hours behind UTC. The day.
    expect(startOfDayIn('2026-11-24', zone)).toBe('2026-11-24T08:00:00.000Z');
    expect(endOfDayIn('2026-11-24', zone)).toBe('2026-11-25T07:59:59.999Z');
    // Mar 8, 2026: clocks go from 02:00 PST to 03:00 PDT.
    expect(startOfDayIn('2026-03-08', zone)).toBe('2026-03-08T08:00:00.000Z');
    expect(endOfDayIn('2026-03-08', zone)).toBe('2026-03-09T06:59:59.999Z');
    expect(hoursBetween(startOfDayIn('2026-03-08', zone), endOfDayIn('2026-03-08', zone))).toBe(23);
    // Nov 1, 2026: clocks go back from 02:00 PDT to 01:00 PST.
    expect(startOfDayIn('2026-11-01', zone)).toBe('2026-11-01T07:00:00.000Z');
    expect(endOfDayIn('2026-11-01', zone)).toBe('2026-11-02T07:59:59.999Z');
    expect(hoursBetween(startOfDayIn('2026-11-01', zone), endOfDayIn('2026-11-01', zone))).toBe(25);
  });

  it('follows Berlin across both DST changes', () => {
    const zone = 'Europe/Berlin';
    // Mar 29, 2026: 02:00 CET becomes 03:00 CEST (01:00 UTC).
    expect(startOfDayIn('2026-03-29', zone)).toBe('2026-03-28T23:00:00.000Z');
    expect(endOfDayIn('2026-03-29', zone)).toBe('2026-03-29T21:59:59.999Z');
    // Oct 25, 2026: 03:00 CEST becomes 02:00 CET.
    expect(startOfDayIn('2026-10-25', zone)).toBe('2026-10-24T22:00:00.000Z');
    expect(endOfDayIn('2026-10-25', zone)).toBe('2026-10-25T22:59:59.999Z');
  });

  it('keeps the half hour of Kolkata, which has no DST', () => {
    expect(startOfDayIn('2026-11-24', 'Asia/Kolkata')).toBe('2026-11-23T18:30:00.000Z');
    expect(endOfDayIn('2026-11-24', 'Asia/Kolkata')).toBe('2026-11-24T18:29:59.999Z');
    expect(startOfDayIn('2026-07-01', 'Asia/Kolkata')).toBe('2026-06-30T18:30:00.000Z');
  });

  it("keeps Chatham's quarter hour across its DST changes (+13:45 in summer, +12:45 in winter)", () => {
    const zone = 'Pacific/Chatham';
    expect(startOfDayIn('2026-01-15', zone)).toBe('2026-01-14T10:15:00.000Z');
    expect(startOfDayIn('2026-07-15', zone)).toBe('2026-07-14T11:15:00.000Z');
    // Apr 5, 2026: 03:45 CHADT becomes 02:45 CHAST, a 25-hour day.
    expect(startOfDayIn('2026-04-05', zone)).toBe('2026-04-04T10:15:00.000Z');
    expect(endOfDayIn('2026-04-05', zone)).toBe('2026-04-05T11:14:59.999Z');
    // Sep 27, 2026: 02:45 CHAST becomes 03:45 CHADT, a 23-hour day.
    expect(startOfDayIn('2026-09-27', zone)).toBe('2026-09-26T11:15:00.000Z');
    expect(endOfDayIn('2026-09-27', zone)).toBe('2026-09-27T10:14:59.999Z');
  });

  it('starts a day whose midnight the clocks skipped at the jump', () => {
    // Santiago, Sep 6, 2026: 00:00 -04 becomes 01:00 -03; the day starts at 04:00 UTC.
    expect(startOfDayIn('2026-09-06', 'America/Santiago')).toBe('2026-09-06T04:00:00.000Z');
    expect(endOfDayIn('2026-09-05', 'America/Santiago')).toBe('2026-09-06T03:59:59.999Z');
  });

  it('leaves no gap and no overlap between one day and the next', () => {
    for (const zone of ['America/Los_Angeles', 'Europe/Berlin', 'Asia/Kolkata', 'Pacific/Chatham'])
      for (const [day, next] of [
        ['2026-03-07', '2026-03-08'],
        ['2026-03-28', '2026-03-29'],
        ['2026-10-31', '2026-11-01'],
        ['2026-09-26', '2026-09-27'],
      ] as const)
        expect(Date.parse(startOfDayIn(next, zone)) - Date.parse(endOfDayIn(day, zone))).toBe(1);
  });

  it('reads an instant back as its day in the zone', () => {
    // 03:00 UTC on Nov 25 is still Nov 24 in Los Angeles: the row.
    expect(dayOfIn('2026-11-25T03:00:00.000Z', 'America/Los_Angeles')).toBe('2026-11-24');
    expect(dayOfIn('2026-11-24T19:00:00.000Z', 'Asia/Kolkata')).toBe('2026-11-25');
    expect(dayOfIn(undefined, 'UTC')).toBe('');
    expect(dayOfIn('not a date', 'UTC')).toBe('');
  });

  it('knows the offset at an instant', () => {
    expect(zoneOffsetMs(Date.parse('2026-01-15T12:00:00Z'), 'America/Los_Angeles')).toBe(-8 * HOUR);
    expect(zoneOffsetMs(Date.parse('2026-07-15T12:00:00Z'), 'America/Los_Angeles')).toBe(-7 * HOUR);
    expect(zoneOffsetMs(Date.parse('2026-01-15T12:00:00Z'), 'Pacific/Chatham')).toBe(13.75 * HOUR);
  });
});

describe('a time as the console shows it', () => {
  const at = '2026-11-24T22:03:05.000Z';

  it('is in the zone, 24-hour, labelled with the US abbreviation or the offset from GMT', () => {
    expect(formatDateTime(at, 'America/Los_Angeles')).toBe('Nov 24, 2026, 14:03:05 PST');
    expect(formatDateTime('2026-07-04T22:03:05Z', 'America/Los_Angeles')).toBe(
      'Jul 4, 2026, 15:03:05 PDT',
    );
    expect(formatDateTime(at, 'Europe/Berlin')).toBe('Nov 24, 2026, 23:03:05 GMT+1');
    expect(formatDateTime(at, 'Asia/Kolkata')).toBe('Nov 25, 2026, 03:33:05 GMT+5:30');
    expect(formatDateTime(at, 'Pacific/Chatham')).toBe('Nov 25, 2026, 11:48:05 GMT+13:45');
    expect(formatDateTime(at, 'UTC')).toBe('Nov 24, 2026, 22:03:05 UTC');
    expect(formatDateTime('2026-11-24T00:00:00Z', 'UTC')).toBe('Nov 24, 2026, 00:00:00 UTC');
  });

  it('is the same text each time it is asked, in each zone, past any number of other times', () => {
    const zones = ['America/Los_Angeles', 'Europe/Berlin', 'UTC'];
    const first = zones.map((zone) => formatDateTime(at, zone));
    for (let second = 0; second < 2500; second += 1)
      formatDateTime(new Date(Date.parse(at) + second * 1000).toISOString(), 'Asia/Kolkata');
    expect(zones.map((zone) => formatDateTime(at, zone))).toEqual(first);
    expect(first).toEqual([
      'Nov 24, 2026, 14:03:05 PST',
      'Nov 24, 2026, 23:03:05 GMT+1',
      'Nov 24, 2026, 22:03:05 UTC',
    ]);
    expect(formatDateTime('2026-11-24T22:44:45.000Z', 'Asia/Kolkata')).toBe(
      'Nov 25, 2026, 04:14:45 GMT+5:30',
    );
  });

  it('shows an unparsable value as it is, and nothing for none', () => {
    expect(formatDateTime('soon', 'UTC')).toBe('soon');
    expect(formatDateTime(undefined, 'UTC')).toBe('');
    expect(formatUtcDateTime(at)).toBe('2026-11-24 22:03:05 UTC');
  });
});

describe("a time written for a file, in the member's zone", () => {
  it('is ISO 8601 with the offset written out, the same instant, milliseconds kept', () => {
    const at = '2026-11-24T22:03:05.120Z';
    expect(isoInZone(at, 'America/Los_Angeles')).toBe('2026-11-24T14:03:05.120-08:00');
    expect(isoInZone('2026-07-04T22:03:05Z', 'America/Los_Angeles')).toBe(
      '2026-07-04T15:03:05.000-07:00',
    );
    expect(isoInZone(at, 'Pacific/Chatham')).toBe('2026-11-25T11:48:05.120+13:45');
    expect(isoInZone(at, 'UTC')).toBe(at);
    for (const zone of ['America/Los_Angeles', 'Asia/Kolkata', 'Pacific/Chatham'])
      expect(Date.parse(isoInZone(at, zone))).toBe(Date.parse(at));
  });

  it('writes an unparsable value as it is', () => {
    expect(isoInZone('soon', 'Europe/Berlin')).toBe('soon');
  });
});

describe('day filters', () => {
  it('accepts only complete, real days in a plausible year', () => {
    expect(isCompleteDay('2025-02-28')).toBe(true);
    expect(isCompleteDay('2024-02-29')).toBe(true);
    expect(isCompleteDay('2025-02-29')).toBe(false);
    expect(isCompleteDay('0202-02-01')).toBe(false);
    expect(isCompleteDay('2025-2-1')).toBe(false);
    expect(isCompleteDay('')).toBe(false);
  });
});
