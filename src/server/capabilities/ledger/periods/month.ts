/**
 * Calendar months in a time zone, pure: where a month starts and ends as
 * instants, and which month an instant falls in. A month is [its first
 * midnight, the next month's first midnight), each in the zone's local time
 * on that day (so a month that changes summer time is an hour short or long).
 */

import { instantOfWall, wallTime } from '#contract/zoned-time.ts';

/** The instant of local midnight starting day `d` of month `m` (1–12) of year `y` in `timeZone`. */
function localMidnight(y: number, m: number, timeZone: string): Date {
  return new Date(instantOfWall(Date.UTC(y, m - 1, 1), timeZone));
}

function parse(month: string): { y: number; m: number } {
  const found = /^(\d{4})-(\d{2})$/.exec(month);
  if (!found?.[1] || !found[2]) throw new Error(`not a month: ${month}`);
  // eslint-disable-next-line no-restricted-syntax -- a year and a month number
  return { y: Number(found[1]), m: Number(found[2]) };
}

const text = (y: number, m: number) =>
  `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}`;

/** `YYYY-MM` after `month`. */
export function nextMonth(month: string): string {
  const { y, m } = parse(month);
  return m === 12 ? text(y + 1, 1) : text(y, m + 1);
}

/** `YYYY-MM` before `month`. */
export function previousMonth(month: string): string {
  const { y, m } = parse(month);
  return m === 1 ? text(y - 1, 12) : text(y, m - 1);
}

/** The month (`YYYY-MM`) `instant` falls in, in `timeZone`. */
export function monthOf(instant: Date, timeZone: string): string {
  return new Date(wallTime(instant.getTime(), timeZone)).toISOString().slice(0, 7);
}

/** The month's first instant and the next month's first, in `timeZone`: [from, to). */
export function monthBounds(month: string, timeZone: string): { from: Date; to: Date } {
  const { y, m } = parse(month);
  const next = parse(nextMonth(month));
  return { from: localMidnight(y, m, timeZone), to: localMidnight(next.y, next.m, timeZone) };
}

/** "October 2026". */
export function monthName(month: string): string {
  const { y, m } = parse(month);
  return new Date(Date.UTC(y, m - 1, 15)).toLocaleString('en-US', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
