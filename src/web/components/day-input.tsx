import { useState, type ComponentProps } from 'react';
import { isCompleteDay } from '../lib/dates.ts';
import { Input } from './ui/input.tsx';

/**
 * A date input that reports a day only once it is a complete, plausible
 * date: typing "2025" into the year field passes through 0002, 0020 and
 * 0202, none of which should fire a filter request. Clearing reports ''.
 */
export function DayInput({
  value,
  onDayChange,
  ...props
}: Omit<ComponentProps<'input'>, 'type' | 'value' | 'onChange'> & {
  value: string;
  onDayChange: (day: string) => void;
}) {
  const [draft, setDraft] = useState(value);
  const [committed, setCommitted] = useState(value);
  // The URL changed under us (Clear filters, Back): show what it now says.
  if (value !== committed) {
    setCommitted(value);
    setDraft(value);
  }

  return (
    <Input
      type="date"
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
