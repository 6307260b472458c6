import { formatDateTime, formatUtcDateTime } from '../lib/dates.ts';
import { useTimeZone } from '../lib/display.tsx';

/**
 * A time as the console shows every time: in the member's zone, labelled
 * with it (`Nov 24, 2026, 14:03:05 PST`, lib/dates.ts), the zone's name and
 * the time in UTC in its tooltip. The same text on the server's render and
 * in the browser: the zone comes from the session both render from.
 */
export function DateTime({ iso, title }: { iso: string; title?: string | undefined }) {
  const timeZone = useTimeZone();
  const utc = formatUtcDateTime(iso);
  return (
    <time dateTime={iso} title={title ?? (utc && utc !== iso ? `${timeZone} · ${utc}` : undefined)}>
      {formatDateTime(iso, timeZone)}
    </time>
  );
}
