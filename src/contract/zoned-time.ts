/**
 * Wall-clock arithmetic in a named time zone over Intl alone, pure: what a
 * zone's clock reads at an instant, and the instant it reads a given time.
 * Ledger months and payment-run schedules both count in a member's zone.
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

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** What `timeZone`'s clock reads at `instant` (ms), as if that reading were UTC (ms). */
export function wallTime(instant: number, timeZone: string): number {
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

/**
 * The instant (ms) at which `timeZone`'s clock reads `wall` (a reading as if
 * UTC, ms). Two passes, so a change of offset between the guess and the
 * answer is taken; a time the clocks skip (spring forward) lands just after
 * the jump.
 */
export function instantOfWall(wall: number, timeZone: string): number {
  let instant = wall - (wallTime(wall, timeZone) - wall);
  instant = wall - (wallTime(instant, timeZone) - instant);
  return instant;
}
