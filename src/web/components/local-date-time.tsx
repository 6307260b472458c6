import { formatLocalDateTime, formatUtcDateTime } from '../lib/dates.ts';
import { useHydrated } from '../lib/use-hydrated.ts';

/**
 * A timestamp as a `<time>`, in the reader's own time zone. A server-rendered
 * page shows it in UTC, labelled so, until the browser takes the page over
 * (lib/use-hydrated.ts): the server cannot know the reader's zone.
 */
export function LocalDateTime({ iso, title }: { iso: string; title?: string | undefined }) {
  const hydrated = useHydrated();
  return (
    <time dateTime={iso} title={title}>
      {hydrated ? formatLocalDateTime(iso) : formatUtcDateTime(iso)}
    </time>
  );
}
