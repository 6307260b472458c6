import { CONSOLE_LOCALE } from '#contract/display.ts';

/**
 * Times and days in the member's time zone (the session's `display.timeZone`:
 * their choice on /account, or the browser's zone reported at sign-in).
 *
 * - A time is shown as `Nov 24, 2026, 14:03:05 PST`: the console's one locale
 *   (`CONSOLE_LOCALE`, the amounts' too) whatever the browser's, 24-hour,
 *   labelled with the zone as US English names it — an abbreviation for the
 *   US zones and UTC (PST, EDT, HST), otherwise the offset from GMT (GMT+1,
 *   GMT+5:30, GMT+13:45), so no label is ambiguous. The string is put
 *   together from the formatter's parts, so the server's render and the
 *   browser's hydration write the same characters whatever ICU punctuation
 *   each has.
 * - A day filter (`YYYY-MM-DD`) covers that whole day in the zone: from the
 *   first instant whose local date is that day to the last millisecond before
 *   the next day's, found with the zone's offsets from Intl (DST-correct,
 *   including a day that does not start at midnight).
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

/** A day a person has finished typing: a real calendar date in a plausible year. */
export function isCompleteDay(day: string): boolean {
  const m = DAY.exec(day);
  if (!m) return false;
  const [, y, mo, d] = m;
  const year = Number(y);
  if (year < 1970 || year > 9999) return false;
  const date = new Date(`${day}T00:00:00.000Z`);
  return (
    !Number.isNaN(date.getTime()) &&
    date.getUTCMonth() + 1 === Number(mo) &&
    date.getUTCDate() === Number(d)
  );
}

// Making a formatter costs far more than using one: one per zone and purpose, kept.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: 'wall' | 'shown', timeZone: string): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(CONSOLE_LOCALE, {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: kind === 'wall' ? '2-digit' : 'short',
      day: kind === 'wall' ? '2-digit' : 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      ...(kind === 'shown' ? { timeZoneName: 'short' } : {}),
    });
    formatters.set(key, found);
  }
  return found;
}

function partsOf(kind: 'wall' | 'shown', timeZone: string, at: number) {
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const { type, value } of formatter(kind, timeZone).formatToParts(at)) parts[type] = value;
  return parts;
}

/** The zone's wall-clock time at instant `at`, as if it were UTC (ms since the epoch). */
function wallClock(at: number, timeZone: string): number {
  const p = partsOf('wall', timeZone, at);
  return Date.UTC(
    Number(p.year),
    Number(p.month) - 1,
    Number(p.day),
    Number(p.hour),
    Number(p.minute),
    Number(p.second),
  );
}

/** The zone's offset from UTC at instant `at`, in ms (Los Angeles in winter: -8 h). */
export function zoneOffsetMs(at: number, timeZone: string): number {
  const whole = Math.floor(at / 1000) * 1000;
  return wallClock(whole, timeZone) - whole;
}

/** The first instant (ms) whose date in `timeZone` is `day` (`YYYY-MM-DD`). */
function dayStartMs(day: string, timeZone: string): number {
  const midnight = Date.parse(`${day}T00:00:00.000Z`);
  // The offsets either side of any change that day (a day away: Samoa's 2011 jump was 24 h).
  const offsets = new Set([
    zoneOffsetMs(midnight - DAY_MS, timeZone),
    zoneOffsetMs(midnight + DAY_MS, timeZone),
  ]);
  // Midnight under each offset, if the zone has it then; the earlier one when it comes twice.
  const real = [...offsets]
    .map((offset) => midnight - offset)
    .filter((at) => wallClock(at, timeZone) === midnight);
  if (real.length > 0) return Math.min(...real);
  // No midnight: the clocks jumped past it, and the day starts at the jump.
  let before = midnight - Math.max(...offsets); // still the day before
  let after = midnight - Math.min(...offsets); // already past midnight
  while (after - before > 1) {
    const mid = Math.floor((before + after) / 2);
    if (wallClock(mid, timeZone) >= midnight) after = mid;
    else before = mid;
  }
  return after;
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** The start of `day` in `timeZone`, as the ISO instant a list's `…Gte` filter takes. */
export function startOfDayIn(day: string, timeZone: string): string {
  return new Date(dayStartMs(day, timeZone)).toISOString();
}

/** The last millisecond of `day` in `timeZone`, as the ISO instant a list's `…Lte` filter takes. */
export function endOfDayIn(day: string, timeZone: string): string {
  return new Date(dayStartMs(nextDay(day), timeZone) - 1).toISOString();
}

/** The day an instant falls on in `timeZone` (`YYYY-MM-DD`), or '' when unparsable. */
export function dayOfIn(iso: string | undefined, timeZone: string): string {
  const at = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(at)) return '';
  return new Date(wallClock(at, timeZone)).toISOString().slice(0, 10);
}

/**
 * `Nov 24, 2026, 14:03:05 PST`: an instant in `timeZone`, labelled with it
 * (see above); the raw value when it does not parse.
 */
export function formatDateTime(iso: string | undefined, timeZone: string): string {
  if (!iso) return '';
  const key = `${timeZone} ${iso}`;
  const known = shownTimes.get(key);
  if (known !== undefined) return known;
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const p = partsOf('shown', timeZone, at);
  const shown = `${p.month} ${p.day}, ${p.year}, ${p.hour}:${p.minute}:${p.second} ${p.timeZoneName}`;
  // Emptied when full rather than kept in order: a bound on memory is all that is asked of it.
  if (shownTimes.size >= SHOWN_TIMES_KEPT) shownTimes.clear();
  shownTimes.set(key, shown);
  return shown;
}

// The same rows' times are shown again and again (every render of a list, on the server
// for each page asked, in the browser at each refetch): each formatted once, by zone.
const SHOWN_TIMES_KEPT = 2000;
const shownTimes = new Map<string, string>();

/**
 * `2026-11-24T14:03:05.000-08:00`: an instant as ISO 8601 in `timeZone`, its
 * offset written out, so a spreadsheet shows the member's wall clock and any
 * ISO parser still reads the same instant (`…Z` when the offset is zero); the
 * raw value when it does not parse.
 */
export function isoInZone(iso: string, timeZone: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const offset = zoneOffsetMs(at, timeZone);
  const wall = new Date(at + offset).toISOString().slice(0, 23);
  if (offset === 0) return `${wall}Z`;
  const minutes = Math.abs(offset) / 60_000;
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return `${wall}${offset < 0 ? '-' : '+'}${hh}:${mm}`;
}

/** `2026-11-24 22:03:05 UTC`: the same instant in UTC, for a time's tooltip. */
export function formatUtcDateTime(iso: string | undefined): string {
  if (!iso) return '';
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  return `${new Date(at).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
