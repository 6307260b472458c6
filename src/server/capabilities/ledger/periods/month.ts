/**
 * Calendar months in a time zone, pure: where a month starts and ends as
 * instants, and which month an instant falls in. A month is [its first
 * midnight, the next month's first midnight), each in the zone's local time
 * on that day (so a month that changes summer time is an hour short or long).
 */

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

/** The local wall time of `instant` in `timeZone`, as if it were UTC. */
function wallTime(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(instant))
    // eslint-disable-next-line no-restricted-syntax -- calendar fields of a date, not amounts
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  return Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The instant of local midnight starting day `d` of month `m` (1–12) of year `y` in `timeZone`. */
function localMidnight(y: number, m: number, timeZone: string): Date {
  const wall = Date.UTC(y, m - 1, 1);
  // Two passes: the offset at a first guess, then at the instant it gives (a change of offset between).
  let instant = wall - (wallTime(wall, timeZone) - wall);
  instant = wall - (wallTime(instant, timeZone) - instant);
  return new Date(instant);
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
