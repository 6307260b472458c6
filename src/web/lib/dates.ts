/**
 * Date filters: the `<input type="date">` value is a calendar day; the API
 * filters on ISO 8601 UTC instants. A day filter covers that whole UTC day.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

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

export function startOfUtcDay(day: string): string {
  return `${day}T00:00:00.000Z`;
}

export function endOfUtcDay(day: string): string {
  return `${day}T23:59:59.999Z`;
}

/** The UTC day of an ISO instant, as a date input's value ('' when unparsable). */
export function utcDayOf(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString().slice(0, 10);
}

const localDateTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** A timestamp in the reader's own time zone, or the raw value when unparsable. */
export function formatLocalDateTime(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : localDateTime.format(date);
}

/**
 * A timestamp the same on every machine: `2026-11-24 00:48:50 UTC`. What a
 * server-rendered page shows until the browser has taken it over and knows
 * the reader's time zone (components/local-date-time.tsx).
 */
export function formatUtcDateTime(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}
