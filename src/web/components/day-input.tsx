import { useState, type ComponentProps } from 'react';
import { isCompleteDay } from '../lib/dates.ts';
import { useHydrated } from '../lib/use-hydrated.ts';
import { Input } from './ui/input.tsx';

/**
 * A date input that reports a day only once it is a complete, plausible
 * date: typing "2025" into the year field passes through 0002, 0020 and
 * 0202, none of which should fire a filter request. Clearing reports ''.
 *
 * Until the page is hydrated it is a plain text field showing the same
 * YYYY-MM-DD value (disabled, like every control then: ui/input.tsx). A
 * date input builds the browser's date editor as the HTML is parsed, which
 * on a cold load cost Chromium 50–70 ms of parsing and made its parser stop
 * for a full style and layout pass before reaching the table below the
 * filters (ARCHITECTURE.md, "Server-rendered first screen"). As text, the
 * rows arrive in the same parse; the editor is built once the app runs.
 */
export function DayInput({
  value,
  onDayChange,
  ...props
}: Omit<ComponentProps<'input'>, 'type' | 'value' | 'onChange'> & {
  value: string;
  onDayChange: (day: string) => void;
}) {
  const hydrated = useHydrated();
  const [draft, setDraft] = useState(value);
  const [committed, setCommitted] = useState(value);
  // The URL changed under us (Clear filters, Back): show what it now says.
  if (value !== committed) {
    setCommitted(value);
    setDraft(value);
  }

  return (
    <Input
      {...(hydrated ? { type: 'date' } : { type: 'text', placeholder: 'YYYY-MM-DD' })}
      value={draft}
      onChange={(event) => {
        const next = event.target.value;
        setDraft(next);
        if (next === '' || isCompleteDay(next)) onDayChange(next);
      }}
      {...props}
    />
  );
}
