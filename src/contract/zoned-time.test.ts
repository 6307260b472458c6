import { describe, expect, it } from 'vitest';
import { instantOfWall, isTimeZone, wallTime } from './zoned-time.ts';

describe('zoned time', () => {
  it('knows the zones the runtime knows', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
  });

  it('reads a zone’s clock at an instant, and finds the instant it reads a time, across summer time', () => {
    // Paris: UTC+1 in winter, UTC+2 from 2026-03-29 01:00 UTC.
    const winter = Date.UTC(2026, 0, 15, 12, 0, 0);
    expect(wallTime(winter, 'Europe/Paris')).toBe(Date.UTC(2026, 0, 15, 13, 0, 0));
    expect(instantOfWall(Date.UTC(2026, 0, 15, 13, 0, 0), 'Europe/Paris')).toBe(winter);
    const summer = Date.UTC(2026, 6, 15, 12, 0, 0);
    expect(wallTime(summer, 'Europe/Paris')).toBe(Date.UTC(2026, 6, 15, 14, 0, 0));
    expect(instantOfWall(Date.UTC(2026, 6, 15, 14, 0, 0), 'Europe/Paris')).toBe(summer);
    // 02:30 on the day the clocks skip from 02:00 to 03:00 lands just after the jump.
    expect(instantOfWall(Date.UTC(2026, 2, 29, 2, 30, 0), 'Europe/Paris')).toBe(
      Date.UTC(2026, 2, 29, 1, 30, 0),
    );
  });
});
